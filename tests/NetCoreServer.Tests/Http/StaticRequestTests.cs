using System;
using System.IO;
using System.Text;
using NUnit.Framework;
using NetCoreServer.Protocols.Http;

namespace NetCoreServer.Tests.Http;

/// <summary>
/// FileCache.FindForRequest, the lookup HttpSession makes for a request target: decoding, every way out of the
/// served directory refused (encoded or not, by symlink or not), and the validators it hands back.
/// </summary>
[TestFixture]
public sealed class StaticRequestTests
{
    private const string Secret = "top secret";

    private static ServedTree Served()
    {
        var tree = new TempTree();
        tree.WriteOutside("secret.txt", Secret);
        tree.WriteOutside("other/secret.txt", Secret);
        tree.Write("index.html", "<p>hi</p>");
        tree.Write("sub/page.txt", "page");
        tree.Write("a b.txt", "spaced");
        tree.Write("100%.txt", "percent");
        var cache = new FileCache();
        Assert.That(cache.InsertPath(tree.Www), Is.True);
        return new ServedTree(tree, cache);
    }

    private static string? Content(FileCache cache, string target)
        => cache.FindForRequest(target, out var content) == StaticLookup.Found ? Encoding.UTF8.GetString(content.Content) : null;

    [Test]
    public void AFileIsFoundByItsDecodedPathWithTheQueryAndFragmentDropped()
    {
        using var served = Served();
        var (tree, cache) = (served.Tree, served.Cache);

        Assert.That(Content(cache, "/index.html?v=2#top"), Is.EqualTo("<p>hi</p>"));
        Assert.That(Content(cache, "/a%20b.txt"), Is.EqualTo("spaced"));
        Assert.That(Content(cache, "/sub/page%2Etxt"), Is.EqualTo("page"), "an encoded dot in a name is just a dot");
        Assert.That(Content(cache, "/100%25.txt"), Is.EqualTo("percent"));
        Assert.That(Content(cache, "http://example.com/sub/page.txt"), Is.EqualTo("page"), "the absolute form");
        Assert.That(cache.FindForRequest("/nothing.txt", out _), Is.EqualTo(StaticLookup.NotFound));
        Assert.That(cache.FindForRequest("/sub/", out _), Is.EqualTo(StaticLookup.NotFound), "a directory is not a file");
        Assert.That(cache.FindForRequest("/sub", out _), Is.EqualTo(StaticLookup.NotFound));
    }

    [Test]
    public void TheFileAndItsValidatorsComeWithTheContent()
    {
        using var served = Served();
        var (tree, cache) = (served.Tree, served.Cache);
        var path = Path.Combine(tree.Www, "index.html");
        var written = new DateTime(2024, 5, 6, 7, 8, 9, 500, DateTimeKind.Utc);
        File.SetLastWriteTimeUtc(path, written);

        Assert.That(cache.FindForRequest("/index.html", out var content), Is.EqualTo(StaticLookup.Found));

        var file = content.File!;
        Assert.That(file, Is.Not.Null);
        Assert.That(file.ContentType, Is.EqualTo("text/html; charset=utf-8"));
        Assert.That(file.Length, Is.EqualTo(9));
        Assert.That(file.LastModified, Is.EqualTo(new DateTimeOffset(2024, 5, 6, 7, 8, 9, TimeSpan.Zero)), "whole seconds");
        Assert.That(file.LastModifiedHttpDate, Is.EqualTo("Mon, 06 May 2024 07:08:09 GMT"));
        Assert.That(file.ETag, Is.EqualTo(HttpValidators.ETagFor(9, new DateTimeOffset(written))));
        Assert.That(file.FullPath, Is.EqualTo(Path.Combine(StaticPath.RealPath(tree.Www)!, "index.html")));
    }

    [Test]
    public void AValueAddedByHandIsFoundByItsExactPathAndHasNoFile()
    {
        using var cache = new FileCache();
        cache.Add("/api%20raw", "raw"u8.ToArray());
        cache.Add("/decoded name", "decoded"u8.ToArray());

        Assert.That(cache.FindForRequest("/api%20raw?x", out var raw), Is.EqualTo(StaticLookup.Found), "NetCoreServer's lookup: the path as received");
        Assert.That(raw.File, Is.Null);
        Assert.That(Content(cache, "/decoded%20name"), Is.EqualTo("decoded"));
    }

    [TestCase("/../secret.txt")]
    [TestCase("/sub/../../secret.txt")]
    [TestCase("/%2e%2e/secret.txt")]
    [TestCase("/%2E%2E/secret.txt")]
    [TestCase("/.%2e/secret.txt")]
    [TestCase("/%2e./secret.txt")]
    [TestCase("/sub/%2e%2e/%2e%2e/secret.txt")]
    [TestCase("/..%2fsecret.txt")]
    [TestCase("/..%2Fsecret.txt")]
    [TestCase("/sub%2f..%2f..%2fsecret.txt")]
    [TestCase("/..%5csecret.txt")]
    [TestCase("/..%5Csecret.txt")]
    [TestCase("/..\\secret.txt")]
    [TestCase("/sub\\..\\..\\secret.txt")]
    [TestCase("//secret.txt")]
    [TestCase("/%2fsecret.txt")]
    [TestCase("/%2F..%2Fsecret.txt")]
    [TestCase("/index.html%00.txt")]
    [TestCase("/index.html\0")]
    [TestCase("/%00/../secret.txt")]
    [TestCase("/./index.html")]
    [TestCase("/%2e/index.html")]
    [TestCase("/...")]
    [TestCase("/%c0%ae%c0%ae/secret.txt")]
    [TestCase("/%e0%80%ae%e0%80%ae/secret.txt")]
    [TestCase("/%zz.txt")]
    [TestCase("/%2")]
    [TestCase("../secret.txt")]
    [TestCase("secret.txt")]
    [TestCase("*")]
    [TestCase("")]
    [TestCase("/sub/%0a.txt")]
    public void ATargetThatCouldLeaveTheServedDirectoryIsRefused(string target)
    {
        using var served = Served();
        var (tree, cache) = (served.Tree, served.Cache);

        Assert.That(cache.FindForRequest(target, out var content), Is.EqualTo(StaticLookup.Refused), target);
        Assert.That(content.Content, Is.Null);
        Assert.That(cache.Find(target.Split('?')[0]).Item1, Is.False, "Find with the raw target reads nothing either");
    }

    [TestCase("/%252e%252e/secret.txt")]
    [TestCase("/%252e%252e%252fsecret.txt")]
    [TestCase("/C:/secret.txt")]
    [TestCase("/etc/passwd")]
    [TestCase("/%2e%2e%2e/secret.txt")]
    public void ADoublyEncodedOrAbsoluteLookingPathStaysInsideAndIsNotFound(string target)
    {
        using var served = Served();
        var (tree, cache) = (served.Tree, served.Cache);

        var result = cache.FindForRequest(target, out _);

        Assert.That(result, Is.Not.EqualTo(StaticLookup.Found), "decoded once: a literal name inside the directory, which does not exist");
    }

    [Test]
    public void KeysThatWouldLeaveTheDirectoryAreNotReadByFindEither()
    {
        using var served = Served();
        var (tree, cache) = (served.Tree, served.Cache);

        foreach (var key in new[] { "/../secret.txt", "/sub/../../secret.txt", "/./../secret.txt", "/..\\secret.txt", "//secret.txt", "/sub//page.txt", "/../other/secret.txt" })
            Assert.That(cache.Find(key).Item1, Is.False, key);
        Assert.That(cache.Size, Is.EqualTo(4), "nothing was read besides the served files");
    }

    [Test]
    public void ASymlinkLeavingTheServedDirectoryIsRefusedAndOneInsideIsFollowed()
    {
        Assume.That(OperatingSystem.IsWindows(), Is.False, "symlinks need no privilege on Unix only");
        using var served = Served();
        var (tree, cache) = (served.Tree, served.Cache);
        var outsideDir = Path.Combine(tree.Root, "other");
        File.CreateSymbolicLink(Path.Combine(tree.Www, "relative.txt"), "../secret.txt");
        File.CreateSymbolicLink(Path.Combine(tree.Www, "absolute.txt"), Path.Combine(tree.Root, "secret.txt"));
        Directory.CreateSymbolicLink(Path.Combine(tree.Www, "up"), "..");
        Directory.CreateSymbolicLink(Path.Combine(tree.Www, "outdir"), outsideDir);
        // A link whose own ".." is applied after following another link: the kernel resolves outdir first, then
        // goes to its parent (the test root); a textual clean-up would wrongly stay inside.
        File.CreateSymbolicLink(Path.Combine(tree.Www, "sneaky.txt"), "outdir/../secret.txt");
        File.CreateSymbolicLink(Path.Combine(tree.Www, "sneaky-absolute.txt"), tree.Www + "/outdir/../secret.txt");
        File.CreateSymbolicLink(Path.Combine(tree.Www, "chain.txt"), "relative.txt");
        File.CreateSymbolicLink(Path.Combine(tree.Www, "alias.html"), "index.html");
        File.CreateSymbolicLink(Path.Combine(tree.Www, "absolute-alias.html"), Path.Combine(tree.Www, "sub", "..", "index.html"));
        File.CreateSymbolicLink(Path.Combine(tree.Www, "sub", "back.txt"), "../index.html");
        Directory.CreateSymbolicLink(Path.Combine(tree.Www, "pages"), "sub");
        File.CreateSymbolicLink(Path.Combine(tree.Www, "loop.txt"), "loop.txt");

        foreach (var target in new[] { "/relative.txt", "/absolute.txt", "/up/secret.txt", "/outdir/secret.txt", "/sneaky.txt", "/sneaky-absolute.txt", "/chain.txt", "/loop.txt" })
        {
            Assert.That(cache.FindForRequest(target, out var content), Is.Not.EqualTo(StaticLookup.Found), target);
            Assert.That(cache.Find(target).Item1, Is.False, target);
        }
        Assert.That(Content(cache, "/alias.html"), Is.EqualTo("<p>hi</p>"), "a link to a file inside is followed");
        Assert.That(Content(cache, "/absolute-alias.html"), Is.EqualTo("<p>hi</p>"), "so is an absolute one");
        Assert.That(Content(cache, "/sub/back.txt"), Is.EqualTo("<p>hi</p>"), "a link with .. that stays inside is followed");
        Assert.That(Content(cache, "/pages/page.txt"), Is.EqualTo("page"), "a directory link inside is followed");

        using var fresh = new FileCache();
        fresh.InsertPath(tree.Www);
        foreach (var key in new[] { "/relative.txt", "/absolute.txt", "/sneaky.txt", "/chain.txt" })
            Assert.That(fresh.Find(key).Item1, Is.False, $"{key} is not read by InsertPath either");
    }

    [Test]
    public void AServedDirectoryReachedThroughASymlinkIsServed()
    {
        Assume.That(OperatingSystem.IsWindows(), Is.False, "symlinks need no privilege on Unix only");
        using var tree = new TempTree();
        tree.Write("a.txt", "a");
        var link = Path.Combine(tree.Root, "www-link");
        Directory.CreateSymbolicLink(link, tree.Www);
        using var cache = new FileCache();

        File.CreateSymbolicLink(Path.Combine(tree.Www, "via-link.txt"), Path.Combine(link, "a.txt"));
        Assert.That(cache.InsertPath(link), Is.True);

        Assert.That(Content(cache, "/a.txt"), Is.EqualTo("a"));
        Assert.That(Content(cache, "/via-link.txt"), Is.EqualTo("a"), "an absolute link naming the directory through the symlink lands inside");
        Assert.That(cache.FindPath(link), Is.True, "paths are named as given");
    }

    [Test]
    public void AFileSwappedForAnEscapingSymlinkAfterLoadingIsNotServed()
    {
        Assume.That(OperatingSystem.IsWindows(), Is.False, "symlinks need no privilege on Unix only");
        using var served = Served();
        var (tree, cache) = (served.Tree, served.Cache);
        Assert.That(Content(cache, "/sub/page.txt"), Is.EqualTo("page"));

        var page = Path.Combine(tree.Www, "sub", "page.txt");
        File.Delete(page);
        File.CreateSymbolicLink(page, Path.Combine(tree.Root, "secret.txt"));

        Assert.That(cache.FindForRequest("/sub/page.txt", out _), Is.EqualTo(StaticLookup.NotFound), "the change is noticed and the new target refused");
    }

    private sealed record ServedTree(TempTree Tree, FileCache Cache) : IDisposable
    {
        public void Dispose()
        {
            Cache.Dispose();
            Tree.Dispose();
        }
    }
}
