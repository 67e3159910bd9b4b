using System;
using NUnit.Framework;
using NetCoreServer.Protocols.Http;

namespace NetCoreServer.Tests.Http;

/// <summary>ETag, Last-Modified and the If-None-Match / If-Modified-Since decision (RFC 9110 8.8, 13).</summary>
[TestFixture]
public sealed class HttpValidatorsTests
{
    private static readonly DateTimeOffset s_written = new(2024, 5, 6, 7, 8, 9, TimeSpan.Zero);
    private static readonly DateTimeOffset s_now = s_written.AddDays(1);
    private static readonly string s_etag = HttpValidators.ETagFor(1234, s_written);

    [Test]
    public void TheStampETagIsStrongQuotedAndChangesWithLengthOrWriteTime()
    {
        Assert.That(s_etag, Does.StartWith("\"").And.EndWith("\"").And.Not.StartWith("W/"));
        Assert.That(HttpValidators.ETagFor(1234, s_written), Is.EqualTo(s_etag), "stable");
        Assert.That(HttpValidators.ETagFor(1235, s_written), Is.Not.EqualTo(s_etag));
        Assert.That(HttpValidators.ETagFor(1234, s_written.AddTicks(1)), Is.Not.EqualTo(s_etag));
        Assert.That(HttpValidators.ETagFor(1234, s_written.ToOffset(TimeSpan.FromHours(2))), Is.EqualTo(s_etag), "the same instant in another zone");
    }

    [Test]
    public void TheContentETagDependsOnTheBytesOnly()
    {
        var a = HttpValidators.ETagFor("hello"u8);

        Assert.That(a, Is.EqualTo(HttpValidators.ETagFor("hello"u8)));
        Assert.That(a, Is.Not.EqualTo(HttpValidators.ETagFor("hellp"u8)));
        Assert.That(a, Does.Match("^\"[A-Za-z0-9_-]{22}\"$"), "128 bits, base64url, quoted");
    }

    [Test]
    public void DatesAreWrittenInImfFixdate()
    {
        Assert.That(HttpValidators.FormatHttpDate(new DateTimeOffset(1994, 11, 6, 8, 49, 37, TimeSpan.Zero)), Is.EqualTo("Sun, 06 Nov 1994 08:49:37 GMT"));
        Assert.That(HttpValidators.FormatHttpDate(new DateTimeOffset(1994, 11, 6, 10, 49, 37, TimeSpan.FromHours(2))), Is.EqualTo("Sun, 06 Nov 1994 08:49:37 GMT"), "converted to GMT");
    }

    [TestCase("Sun, 06 Nov 1994 08:49:37 GMT")]
    [TestCase("Sunday, 06-Nov-94 08:49:37 GMT")]
    [TestCase("Sun Nov  6 08:49:37 1994")]
    [TestCase("  Sun, 06 Nov 1994 08:49:37 GMT ")]
    public void AllThreeHttpDateFormsAreRead(string value)
    {
        Assert.That(HttpValidators.TryParseHttpDate(value, out var date), Is.True, value);
        Assert.That(date, Is.EqualTo(new DateTimeOffset(1994, 11, 6, 8, 49, 37, TimeSpan.Zero)));
        Assert.That(date.Offset, Is.EqualTo(TimeSpan.Zero));
    }

    [TestCase("")]
    [TestCase("yesterday")]
    [TestCase("Sun, 06 Nov 1994 08:49:37")]
    [TestCase("Sun, 06 Nov 1994 08:49:37 GMT, Mon, 07 Nov 1994 08:49:37 GMT")]
    [TestCase("1994-11-06T08:49:37Z")]
    public void AnythingElseIsNotAnHttpDate(string value)
        => Assert.That(HttpValidators.TryParseHttpDate(value, out _), Is.False, value);

    [Test]
    public void LastModifiedIsWholeSecondsAndNeverInTheFuture()
    {
        var written = s_written.AddMilliseconds(999);

        Assert.That(HttpValidators.LastModifiedFor(written, s_now), Is.EqualTo(s_written));
        Assert.That(HttpValidators.LastModifiedFor(s_now.AddHours(1), s_now), Is.EqualTo(s_now), "a future write time becomes now");
    }

    [TestCase("*")]
    [TestCase("\"other\", {0}")]
    [TestCase("W/{0}")]
    [TestCase("\"a,b\", W/{0}")]
    [TestCase(" {0} ")]
    public void IfNoneMatchMatchesByTheWeakComparison(string format)
        => Assert.That(HttpValidators.IfNoneMatchMatches(string.Format(format, s_etag), s_etag), Is.True, format);

    [TestCase("\"other\"")]
    [TestCase("\"other\", W/\"more\"")]
    [TestCase("")]
    [TestCase("\"unterminated")]
    public void IfNoneMatchDoesNotMatchOtherTags(string value)
        => Assert.That(HttpValidators.IfNoneMatchMatches(value, s_etag), Is.False, value);

    [Test]
    public void AnUnquotedTagSomeClientsSendStillMatches()
        => Assert.That(HttpValidators.IfNoneMatchMatches(s_etag.Trim('"'), s_etag), Is.True);

    [Test]
    public void AMatchingIfNoneMatchGives304ForGetAndHeadAnd412Otherwise()
    {
        Assert.That(Evaluate("GET", s_etag, null), Is.EqualTo(ConditionalResult.NotModified));
        Assert.That(Evaluate("HEAD", "*", null), Is.EqualTo(ConditionalResult.NotModified));
        Assert.That(Evaluate("PUT", s_etag, null), Is.EqualTo(ConditionalResult.PreconditionFailed));
        Assert.That(Evaluate("GET", "\"stale\"", null), Is.EqualTo(ConditionalResult.Proceed));
    }

    [Test]
    public void IfNoneMatchDecidesAloneWhenPresent()
    {
        var later = HttpValidators.FormatHttpDate(s_written.AddHours(1));

        Assert.That(Evaluate("GET", "\"stale\"", later), Is.EqualTo(ConditionalResult.Proceed), "If-Modified-Since is ignored (RFC 9110 13.2.2)");
    }

    [Test]
    public void IfModifiedSinceGives304WhenNotModifiedSinceThatDate()
    {
        Assert.That(Evaluate("GET", null, HttpValidators.FormatHttpDate(s_written)), Is.EqualTo(ConditionalResult.NotModified), "the same second");
        Assert.That(Evaluate("GET", null, HttpValidators.FormatHttpDate(s_written.AddHours(1))), Is.EqualTo(ConditionalResult.NotModified));
        Assert.That(Evaluate("GET", null, HttpValidators.FormatHttpDate(s_written.AddSeconds(-1))), Is.EqualTo(ConditionalResult.Proceed), "modified since");
        Assert.That(Evaluate("HEAD", null, "Monday, 06-May-24 07:08:09 GMT"), Is.EqualTo(ConditionalResult.NotModified), "an obsolete date form");
    }

    [Test]
    public void AnInvalidFutureOrMisplacedIfModifiedSinceIsIgnored()
    {
        Assert.That(Evaluate("GET", null, "not a date"), Is.EqualTo(ConditionalResult.Proceed));
        Assert.That(Evaluate("GET", null, HttpValidators.FormatHttpDate(s_now.AddDays(1))), Is.EqualTo(ConditionalResult.Proceed), "later than now");
        Assert.That(Evaluate("POST", null, HttpValidators.FormatHttpDate(s_written)), Is.EqualTo(ConditionalResult.Proceed), "only GET and HEAD");
        Assert.That(Evaluate("GET", "  ", HttpValidators.FormatHttpDate(s_written)), Is.EqualTo(ConditionalResult.NotModified), "an empty If-None-Match is absent");
        Assert.That(Evaluate("GET", null, null), Is.EqualTo(ConditionalResult.Proceed));
    }

    private static ConditionalResult Evaluate(string method, string? ifNoneMatch, string? ifModifiedSince)
        => HttpValidators.Evaluate(method, ifNoneMatch, ifModifiedSince, s_etag, s_written, s_now);
}
