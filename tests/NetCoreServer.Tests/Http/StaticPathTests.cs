using System;
using System.IO;
using NUnit.Framework;
using NetCoreServer.Protocols.Http;

namespace NetCoreServer.Tests.Http;

[TestFixture]
public sealed class StaticPathTests
{
    [TestCase("/", "/")]
    [TestCase("/a/b.txt", "/a/b.txt")]
    [TestCase("/a%20b/c%2Bd.txt", "/a b/c+d.txt")]
    [TestCase("/a+b.txt", "/a+b.txt")]
    [TestCase("/caf%C3%A9.html", "/café.html")]
    [TestCase("/café.html", "/café.html")]
    [TestCase("/docs/", "/docs/")]
    [TestCase("/a/b/", "/a/b/")]
    [TestCase("/x?q=1", "/x")]
    [TestCase("/x?q=/../../etc#frag", "/x")]
    [TestCase("HTTP://Example.com/a/b", "/a/b")]
    [TestCase("https://example.com", "/")]
    [TestCase("/%252e%252e", "/%2e%2e")]
    public void APathIsDecodedOnceIntoItsKey(string target, string key)
    {
        Assert.That(StaticPath.TryParseUrlPath(target, out var parsed), Is.True, target);
        Assert.That(parsed, Is.EqualTo(key));
    }

    [TestCase("/%ff.txt")]
    [TestCase("/%c3.txt")]
    [TestCase("/%C0%AF")]
    [TestCase("/a%2")]
    [TestCase("/a%g0")]
    [TestCase("/a/../b")]
    [TestCase("/a/%2E%2e/b")]
    [TestCase("/a%2fb")]
    [TestCase("/a%5cb")]
    [TestCase("/a%00")]
    [TestCase("/a%7f")]
    [TestCase("/a\tb")]
    [TestCase("/a//b")]
    [TestCase("//")]
    [TestCase("/a\\b")]
    [TestCase("/a/..")]
    [TestCase("relative/path")]
    [TestCase("/. ")]
    [TestCase("/.. ")]
    public void AMalformedOrEscapingPathIsRefused(string target)
        => Assert.That(StaticPath.TryParseUrlPath(target, out _), Is.False, target);

    [TestCase("name.txt", true)]
    [TestCase("...hidden", true)]
    [TestCase(".well-known", true)]
    [TestCase("", false)]
    [TestCase(".", false)]
    [TestCase("..", false)]
    [TestCase("...", false)]
    [TestCase(". .", false)]
    [TestCase("a/b", false)]
    [TestCase("a\\b", false)]
    [TestCase("a\0", false)]
    [TestCase("/abs", false)]
    public void ASegmentIsSafeOnlyWhenItStaysInItsDirectory(string segment, bool safe)
        => Assert.That(StaticPath.IsSafeSegment(segment), Is.EqualTo(safe), segment);

    [Test]
    public void IsWithinComparesWholeComponents()
    {
        var root = Path.Combine(Path.GetTempPath(), "served");

        Assert.That(StaticPath.IsWithin(root, root), Is.True);
        Assert.That(StaticPath.IsWithin(root, Path.Combine(root, "a")), Is.True);
        Assert.That(StaticPath.IsWithin(root + Path.DirectorySeparatorChar, Path.Combine(root, "a")), Is.True);
        Assert.That(StaticPath.IsWithin(root, root + "-other"), Is.False);
        Assert.That(StaticPath.IsWithin(root, Path.GetTempPath()), Is.False);
    }

    [Test]
    public void ResolveWithinStopsAtTheRootAndAtLinkCycles()
    {
        Assume.That(OperatingSystem.IsWindows(), Is.False, "symlinks need no privilege on Unix only");
        using var tree = new TempTree();
        var root = StaticPath.RealPath(tree.Www)!;
        File.CreateSymbolicLink(Path.Combine(tree.Www, "a"), "b");
        File.CreateSymbolicLink(Path.Combine(tree.Www, "b"), "a");
        tree.Write("dir/file.txt", "x");

        Assert.That(StaticPath.ResolveWithin(root, ["a"]), Is.Null, "a cycle ends after the hop limit");
        Assert.That(StaticPath.ResolveWithin(root, ["dir", "file.txt"]), Is.EqualTo(Path.Combine(root, "dir", "file.txt")));
        Assert.That(StaticPath.ResolveWithin(root, ["dir", "..", "..", "x"]), Is.Null, "a .. above the root");
        Assert.That(StaticPath.ResolveWithin(root, ["missing", "file"]), Is.EqualTo(Path.Combine(root, "missing", "file")), "what does not exist resolves to itself");
    }
}
