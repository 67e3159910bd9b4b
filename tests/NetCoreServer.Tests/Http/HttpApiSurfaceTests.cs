using System;
using System.Collections.Generic;
using System.Linq;
using NetCoreServer.Tests.Compatibility;
using NUnit.Framework;

namespace NetCoreServer.Tests.Http;

/// <summary>
/// <see cref="Buffer"/>, <see cref="HttpRequest"/> and <see cref="HttpResponse"/> against NetCoreServer's (8.x) public
/// members, signature by signature as a user's assembly sees them (see <see cref="ApiSignatures"/>). Written from its
/// API only; ours may offer more.
/// </summary>
[TestFixture]
public sealed class HttpApiSurfaceTests
{
    private static readonly string[] s_body = ["string", "ReadOnlySpan<char>", "byte[]", "ReadOnlySpan<byte>"];

    private static IEnumerable<TestCaseData> Types()
    {
        yield return new TestCaseData(typeof(Buffer), BufferMembers()).SetName("BufferOffersNetCoreServersMembers");
        yield return new TestCaseData(typeof(HttpRequest), RequestMembers()).SetName("HttpRequestOffersNetCoreServersMembers");
        yield return new TestCaseData(typeof(HttpResponse), ResponseMembers()).SetName("HttpResponseOffersNetCoreServersMembers");
    }

    [TestCaseSource(nameof(Types))]
    public void TheTypeOffersEveryMemberWithTheSameSignature(Type type, string[] expected)
    {
        var offered = ApiSignatures.VisibleFrom(type);

        Assert.That(expected.Where(member => !offered.Contains(member)), Is.Empty, $"{type.Name} lacks these members");
        Assert.That(type.IsPublic && !type.IsSealed && !type.IsAbstract, Is.True, "public, unsealed, concrete");
        Assert.That(type.Namespace, Is.EqualTo("NetCoreServer"));
    }

    private static string[] BufferMembers() =>
    [
        "public .ctor()", "public .ctor(long)", "public .ctor(byte[])",
        "public bool IsEmpty { get; }", "public byte[] Data { get; }", "public long Capacity { get; }", "public long Size { get; }",
        "public long Offset { get; }", "public byte Item { get; }",
        "public Span<byte> AsSpan()", "public string ToString()", "public void Clear()", "public string ExtractString(long, long)",
        "public void Remove(long, long)", "public void Reserve(long)", "public void Resize(long)", "public void Shift(long)",
        "public void Unshift(long)",
        "public long Append(byte)", "public long Append(byte[])", "public long Append(byte[], long, long)",
        "public long Append(ReadOnlySpan<byte>)", "public long Append(Buffer)", "public long Append(string)", "public long Append(ReadOnlySpan<char>)",
    ];

    private static string[] Message(string type) =>
    [
        "public bool IsEmpty { get; }", "public bool IsErrorSet { get; }", "public string Protocol { get; }",
        "public long Headers { get; }", "public ValueTuple<string, string> Header(int)",
        "public string Body { get; }", "public byte[] BodyBytes { get; }", "public ReadOnlySpan<byte> BodySpan { get; }",
        "public long BodyLength { get; }", "public Buffer Cache { get; }", "public string ToString()",
        $"public {type} Clear()", $"public {type} SetHeader(string, string)", $"public {type} SetBodyLength(int)",
        .. s_body.Select(body => $"public {type} SetBody({body})"),
    ];

    private static string[] RequestMembers() =>
    [
        .. Message("HttpRequest"),
        "public .ctor()", "public .ctor(string, string, string)",
        "public string Method { get; }", "public string Url { get; }",
        "public long Cookies { get; }", "public ValueTuple<string, string> Cookie(int)",
        "public HttpRequest SetBegin(string, string, string)", "public HttpRequest SetCookie(string, string)",
        "public HttpRequest AddCookie(string, string)",
        "public HttpRequest MakeHeadRequest(string)", "public HttpRequest MakeGetRequest(string)",
        "public HttpRequest MakeDeleteRequest(string)", "public HttpRequest MakeOptionsRequest(string)", "public HttpRequest MakeTraceRequest(string)",
        .. s_body.Select(body => $"public HttpRequest MakePostRequest(string, {body}, string)"),
        .. s_body.Select(body => $"public HttpRequest MakePutRequest(string, {body}, string)"),
    ];

    private static string[] ResponseMembers() =>
    [
        .. Message("HttpResponse"),
        "public .ctor()", "public .ctor(int, string)", "public .ctor(int, string, string)",
        "public int Status { get; }", "public string StatusPhrase { get; }",
        "public HttpResponse SetBegin(int, string)", "public HttpResponse SetBegin(int, string, string)",
        "public HttpResponse SetContentType(string)",
        "public HttpResponse SetCookie(string, string, int, string, string, bool, bool, bool)",
        "public HttpResponse MakeOkResponse(int)", "public HttpResponse MakeErrorResponse(string, string)",
        "public HttpResponse MakeErrorResponse(int, string, string)", "public HttpResponse MakeHeadResponse()",
        "public HttpResponse MakeOptionsResponse(string)", "public HttpResponse MakeTraceResponse(HttpRequest)",
        .. s_body.Select(body => $"public HttpResponse MakeGetResponse({body}, string)"),
        .. s_body.Select(body => $"public HttpResponse MakeTraceResponse({body})"),
    ];
}
