using NetCoreServer.Protocols.Http;
using NUnit.Framework;

namespace NetCoreServer.Tests.Http;

/// <summary>The Range header as static files read it (RFC 9110 14.1.2, one range).</summary>
[TestFixture]
internal sealed class HttpRangesTests
{
    [TestCase("bytes=0-9", 100, RangeRequest.Satisfiable, 0, 9)]
    [TestCase("bytes=90-200", 100, RangeRequest.Satisfiable, 90, 99)]
    [TestCase("bytes=95-", 100, RangeRequest.Satisfiable, 95, 99)]
    [TestCase("bytes=-10", 100, RangeRequest.Satisfiable, 90, 99)]
    [TestCase("bytes=-500", 100, RangeRequest.Satisfiable, 0, 99)]
    [TestCase(" Bytes=1-2 ", 100, RangeRequest.Satisfiable, 1, 2)]
    [TestCase("bytes = 1-2", 100, RangeRequest.Whole, 0, 0)]
    [TestCase("bytes=100-", 100, RangeRequest.Unsatisfiable, 0, 0)]
    [TestCase("bytes=-0", 100, RangeRequest.Unsatisfiable, 0, 0)]
    [TestCase("bytes=0-", 0, RangeRequest.Unsatisfiable, 0, 0)]
    [TestCase("bytes=5-1", 100, RangeRequest.Whole, 0, 0)]
    [TestCase("bytes=0-1,3-4", 100, RangeRequest.Whole, 0, 0)]
    [TestCase("items=0-1", 100, RangeRequest.Whole, 0, 0)]
    [TestCase("bytes=a-1", 100, RangeRequest.Whole, 0, 0)]
    [TestCase("bytes=+1-2", 100, RangeRequest.Whole, 0, 0)]
    [TestCase("bytes=-", 100, RangeRequest.Whole, 0, 0)]
    [TestCase(null, 100, RangeRequest.Whole, 0, 0)]
    public void ARangeHeaderIsReadAsRfc9110Says(string? header, long length, RangeRequest expected, long first, long last)
    {
        var result = HttpRanges.Parse(header, length, out var from, out var to);
        Assert.That(result, Is.EqualTo(expected));
        if (expected == RangeRequest.Satisfiable)
            Assert.That((from, to), Is.EqualTo((first, last)));
    }
}
