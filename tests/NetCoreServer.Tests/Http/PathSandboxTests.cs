using System;
using System.IO;
using System.Linq;
using NetCoreServer.Compat.Caching;
using NetCoreServer.Protocols.Http;
using NUnit.Framework;

namespace NetCoreServer.Tests.Http;

/// <summary>
/// The file cache's path sandbox on its own: which key names which file below a served directory, and that no key
/// names one outside it, whatever it spells.
/// </summary>
[TestFixture]
public sealed class PathSandboxTests
{
    [Test]
    public void AKeyUnderThePrefixNamesTheFileBelowTheRoot()
    {
        using var tree = new TempTree();
        var file = tree.Write("css/site.css", "x");
        var sandbox = PathSandbox.Create(tree.Www, "/static/", "*.*")!;

        Assert.That(sandbox.TrySplit("/static/css/site.css", out var segments), Is.True);
        Assert.That(segments, Is.EqualTo(new[] { "css", "site.css" }));
        Assert.That(sandbox.Resolve(segments)?.Path, Is.EqualTo(StaticPath.RealPath(file)));
        Assert.That(sandbox.KeyFor(segments), Is.EqualTo("/static/css/site.css"), "the key of a file read at insert is the one that finds it");
    }

    [TestCase("/static/../secret.txt")]
    [TestCase("/static/css/../../secret.txt")]
    [TestCase("/static/./css/site.css")]
    [TestCase("/static/css//site.css")]
    [TestCase("/static/css\\..\\..\\secret.txt")]
    [TestCase("/static/css/site.css\0")]
    [TestCase("/static/")]
    [TestCase("/static")]
    [TestCase("/staticx/css/site.css")]
    [TestCase("/other/css/site.css")]
    public void AKeyWithADotSegmentASeparatorOrAnotherPrefixNamesNoFile(string key)
    {
        using var tree = new TempTree();
        tree.Write("css/site.css", "x");
        tree.WriteOutside("secret.txt", "secret");
        var sandbox = PathSandbox.Create(tree.Www, "/static", "*.*")!;

        Assert.That(sandbox.TrySplit(key, out _), Is.False, key);
    }

    [Test]
    public void AnEncodedTraversalIsALiteralNameInsideTheRootNeverTheParent()
    {
        using var tree = new TempTree();
        tree.WriteOutside("secret.txt", "secret");
        var sandbox = PathSandbox.Create(tree.Www, "/", "*.*")!;

        // Decoding is the HTTP lookup's, once: here "%2e%2e" is a name like any other.
        Assert.That(sandbox.TrySplit("/%2e%2e/secret.txt", out var segments), Is.True);
        Assert.That(sandbox.Resolve(segments), Is.Null, "no directory named %2e%2e in the root, and never the parent");

        var literal = tree.Write("%2e%2e/secret.txt", "inside");
        Assert.That(sandbox.Resolve(segments)?.Path, Is.EqualTo(StaticPath.RealPath(literal)), "the literal name inside the root");
    }

    [Test]
    public void ASymlinkIsFollowedOnlyWhileItStaysInsideTheRoot()
    {
        Assume.That(OperatingSystem.IsWindows(), Is.False, "symlinks need no privilege on Unix only");
        using var tree = new TempTree();
        var inside = tree.Write("real/page.html", "inside");
        var secret = tree.WriteOutside("private/secret.txt", "secret");
        File.CreateSymbolicLink(Path.Combine(tree.Www, "alias.html"), inside);
        File.CreateSymbolicLink(Path.Combine(tree.Www, "escape.txt"), secret);
        File.CreateSymbolicLink(Path.Combine(tree.Www, "relative.txt"), "../private/secret.txt");
        Directory.CreateSymbolicLink(Path.Combine(tree.Www, "outdir"), Path.GetDirectoryName(secret)!);
        var sandbox = PathSandbox.Create(tree.Www, "/", "*.*")!;

        Assert.That(sandbox.Resolve(["alias.html"])?.Path, Is.EqualTo(StaticPath.RealPath(inside)), "a link to a file inside");
        Assert.That(sandbox.Resolve(["escape.txt"]), Is.Null, "an absolute link out of the root");
        Assert.That(sandbox.Resolve(["relative.txt"]), Is.Null, "a relative link out of the root");
        Assert.That(sandbox.Resolve(["outdir", "secret.txt"]), Is.Null, "a file below a linked directory outside");
    }

    [Test]
    public void TheListingLeavesOutLinkedDirectoriesAndUnsafeNames()
    {
        Assume.That(OperatingSystem.IsWindows(), Is.False, "backslashes and control characters in file names, and free symlinks, are Unix's");
        using var tree = new TempTree();
        tree.Write("a.txt", "a");
        tree.Write("sub/b.txt", "b");
        tree.Write("back\\slash.txt", "c");
        tree.Write("tab\there.txt", "d");
        Directory.CreateSymbolicLink(Path.Combine(tree.Www, "linked"), Path.Combine(tree.Www, "sub"));
        var sandbox = PathSandbox.Create(tree.Www, "/", "*.*")!;

        var listed = sandbox.List([]).OrderBy(e => e.Name, StringComparer.Ordinal).ToArray();

        Assert.That(listed, Is.EqualTo(new[] { ("a.txt", false), ("sub", true) }));
        Assert.That(sandbox.List(["sub"]), Is.EqualTo(new[] { ("b.txt", false) }));
    }

    [Test]
    public void TheFilterDecidesWhichFilesAKeyCanName()
    {
        using var tree = new TempTree();
        tree.Write("index.html", "x");
        tree.Write("app.js", "y");
        tree.Write("dir.html/inner.txt", "z");
        var sandbox = PathSandbox.Create(tree.Www, "/", "*.html")!;

        Assert.That(sandbox.Resolve(["index.html"]), Is.Not.Null);
        Assert.That(sandbox.Resolve(["app.js"]), Is.Null, "filtered out");
        Assert.That(sandbox.Resolve(["dir.html"]), Is.Null, "a directory is not a file, whatever its name");
        Assert.That(sandbox.Resolve([]), Is.Null, "the root itself");
    }

    [Test]
    public void ADirectoryThatDoesNotExistHasNoSandboxAndALinkedRootIsResolved()
    {
        using var tree = new TempTree();
        Assert.That(PathSandbox.Create(Path.Combine(tree.Root, "missing"), "/", "*.*"), Is.Null);
        Assume.That(OperatingSystem.IsWindows(), Is.False, "symlinks need no privilege on Unix only");
        var link = Path.Combine(tree.Root, "www-link");
        Directory.CreateSymbolicLink(link, tree.Www);

        Assert.That(PathSandbox.Create(link, "/", "*.*")!.RealRoot, Is.EqualTo(StaticPath.RealPath(tree.Www)), "files are kept inside the real directory");
    }
}
