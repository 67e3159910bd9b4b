using System;
using System.IO;
using NetCoreServer.Compat.Caching;
using NetCoreServer.Protocols.Http;
using NUnit.Framework;

namespace NetCoreServer.Tests.Http;

/// <summary>
/// The file cache's entry store on its own: what ties an entry to the directory it was read from, and what fits. The
/// removed-directory check is the one that closes the race between a file's handler and RemovePath, which through
/// the public class only a lucky interleaving reaches.
/// </summary>
[TestFixture]
public sealed class CacheStoreTests
{
    [Test]
    public void AnEntryFromADirectoryAlreadyRemovedIsRefused()
    {
        using var tree = new TempTree();
        var store = new CacheStore(TimeProvider.System, FileCache.DefaultMaxTotalSize);
        var served = Served(tree);
        var origin = OriginOf(tree, served, "a.txt");

        served.MarkRemoved();

        Assert.That(store.Add("/a.txt", [1], TimeSpan.Zero, origin), Is.False, "a handler finishing after RemovePath adds nothing");
        Assert.That(store.Get("/a.txt"), Is.Null);
        Assert.That(store.Add("/a.txt", [1], TimeSpan.Zero, origin: null), Is.True, "a value added by hand has no directory to lose");
    }

    [Test]
    public void RemovingADirectoryDropsOnlyTheEntriesReadFromIt()
    {
        using var tree = new TempTree();
        var store = new CacheStore(TimeProvider.System, FileCache.DefaultMaxTotalSize);
        var first = Served(tree);
        var second = Served(tree);
        store.Add("/a.txt", [1], TimeSpan.Zero, OriginOf(tree, first, "a.txt"));
        store.Add("/b.txt", [2], TimeSpan.Zero, OriginOf(tree, second, "b.txt"));
        store.Add("/by-hand", [3], TimeSpan.Zero, origin: null);

        first.MarkRemoved();
        store.RemoveFrom(first);

        Assert.That(store.Get("/a.txt"), Is.Null);
        Assert.That(store.Get("/b.txt")?.Value, Is.EqualTo(new byte[] { 2 }));
        Assert.That(store.Get("/by-hand")?.Value, Is.EqualTo(new byte[] { 3 }));
        Assert.That(store.TotalSize, Is.EqualTo(CacheStore.CostOf(1, "/b.txt") + CacheStore.CostOf(1, "/by-hand")));
    }

    [Test]
    public void AFileIsReadOnlyWhenItCanFitAndAtInsertOnlyWithoutEvicting()
    {
        using var tree = new TempTree();
        var bound = CacheStore.CostOf(100, "/k");
        var store = new CacheStore(TimeProvider.System, bound);

        Assert.That(store.CouldTake(101, "/k", withoutEvicting: false), Is.False, "larger than the whole bound");
        Assert.That(store.CouldTake(100, "/k", withoutEvicting: false), Is.True);

        store.Add("/f", new byte[10], TimeSpan.Zero, OriginOf(tree, Served(tree), "f"));
        Assert.That(store.CouldTake(100, "/k", withoutEvicting: false), Is.True, "a lookup may evict the file entry");
        Assert.That(store.CouldTake(100, "/k", withoutEvicting: true), Is.False, "InsertPath does not evict to make room");

        store.Clear(dispose: true);
        Assert.That(store.CouldTake(1, "/k", withoutEvicting: false), Is.False, "disposed");
    }

    private static ServedDirectory Served(TempTree tree)
        => new(tree.Www, PathSandbox.Create(tree.Www, "/", "*.*")!, TimeSpan.Zero, static (_, _, _, _) => true, streamsLarge: false);

    private static FileOrigin OriginOf(TempTree tree, ServedDirectory served, string name)
    {
        var path = tree.Write(name, "x");
        var file = new StaticFile(path, FileStamp.Read(path)!.Value, "text/plain", DateTimeOffset.UtcNow);
        return new FileOrigin(served, "/" + name, [name], file);
    }
}
