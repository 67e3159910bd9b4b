using System;
using System.Collections.Concurrent;
using System.Diagnostics;
using System.IO;
using System.Linq;
using System.Text;
using System.Threading;
using System.Threading.Tasks;
using NUnit.Framework;
using NetCoreServer.Protocols.Http;

namespace NetCoreServer.Tests.Http;

/// <summary>FileCache: NetCoreServer's API, directories, changes on disk, timeouts and the size bound.</summary>
[TestFixture]
public sealed class FileCacheTests
{
    // What a 1000-byte file under a six-character key costs against MaxTotalSize.
    private static long PerFile => 1000 + 2 * "/a.bin".Length + FileCache.EntryOverhead;

    private static string Text(byte[] bytes) => Encoding.UTF8.GetString(bytes);

    private static string FindText(FileCache cache, string key)
    {
        var (found, value) = cache.Find(key);
        Assert.That(found, Is.True, $"{key} is cached");
        return Text(value);
    }

    [Test]
    public void AddFindRemoveAndClearBehaveAsInNetCoreServer()
    {
        using var cache = new FileCache();
        Assert.That(cache.Empty, Is.True);

        Assert.That(cache.Add("/a", "1"u8.ToArray()), Is.True);
        Assert.That(cache.Add("/b", "2"u8.ToArray(), TimeSpan.FromHours(1)), Is.True);
        Assert.That(cache.Add("/a", "one"u8.ToArray()), Is.True, "adding an existing key replaces it");

        Assert.That(cache.Size, Is.EqualTo(2));
        Assert.That(cache.Empty, Is.False);
        Assert.That(FindText(cache, "/a"), Is.EqualTo("one"));
        var (found, missing) = cache.Find("/nothing");
        Assert.That(found, Is.False);
        Assert.That(missing, Is.Empty, "a miss returns an empty array, not null");
        Assert.That(cache.Find("/A").Item1, Is.False, "keys are case-sensitive");

        Assert.That(cache.Remove("/a"), Is.True);
        Assert.That(cache.Remove("/a"), Is.False);
        cache.Clear();
        Assert.That(cache.Empty, Is.True);
        Assert.That(cache.TotalSize, Is.Zero);
    }

    [Test]
    public void TheValueIsKeptByReference()
    {
        using var cache = new FileCache();
        var value = "bytes"u8.ToArray();
        cache.Add("/k", value);

        Assert.That(cache.TryGetValue("/k", out var found), Is.True);
        Assert.That(found, Is.SameAs(value), "no copy: the HTTP session can send cached bytes by reference");
    }

    [Test]
    public void InsertPathCachesEveryFileUnderTheKeyPrefix()
    {
        using var tree = new TempTree();
        tree.Write("index.html", "<h1>home</h1>");
        tree.Write("css/site.css", "body{}");
        tree.Write("deep/er/a b.txt", "spaced");
        using var cache = new FileCache();

        Assert.That(cache.InsertPath(tree.Www), Is.True);
        Assert.That(cache.FindPath(tree.Www), Is.True);
        Assert.That(cache.Size, Is.EqualTo(3), "all three files were read at insert");
        Assert.That(FindText(cache, "/index.html"), Is.EqualTo("<h1>home</h1>"));
        Assert.That(FindText(cache, "/css/site.css"), Is.EqualTo("body{}"));
        Assert.That(FindText(cache, "/deep/er/a b.txt"), Is.EqualTo("spaced"), "file names are keys as they are");

        Assert.That(cache.InsertPath(tree.Www, "/static/"), Is.True, "inserting the same path again replaces it");
        Assert.That(cache.Size, Is.EqualTo(3));
        Assert.That(FindText(cache, "/static/css/site.css"), Is.EqualTo("body{}"));
        Assert.That(cache.Find("/css/site.css").Item1, Is.False, "the old prefix is gone");

        Assert.That(cache.RemovePath(tree.Www), Is.True);
        Assert.That(cache.FindPath(tree.Www), Is.False);
        Assert.That(cache.Empty, Is.True, "removing the path removes what was read from it");
        Assert.That(cache.Find("/static/css/site.css").Item1, Is.False, "and nothing is read for it any more");
    }

    [Test]
    public void InsertPathFailsForADirectoryThatDoesNotExist()
    {
        using var tree = new TempTree();
        using var cache = new FileCache();

        Assert.That(cache.InsertPath(Path.Combine(tree.Root, "missing")), Is.False);
        Assert.That(cache.FindPath(Path.Combine(tree.Root, "missing")), Is.False);
    }

    [Test]
    public void RemovePathKeepsValuesAddedByHand()
    {
        using var tree = new TempTree();
        tree.Write("a.txt", "a");
        using var cache = new FileCache();
        cache.InsertPath(tree.Www);
        cache.Add("/manual", "m"u8.ToArray());

        cache.RemovePath(tree.Www);

        Assert.That(FindText(cache, "/manual"), Is.EqualTo("m"));
        Assert.That(cache.Size, Is.EqualTo(1));
    }

    [Test]
    public void TheFilterLimitsWhichFilesAreCachedAndRead()
    {
        using var tree = new TempTree();
        tree.Write("page.html", "p");
        tree.Write("data.json", "{}");
        tree.Write("README", "r");
        using var cache = new FileCache();

        cache.InsertPath(tree.Www, filter: "*.html");

        Assert.That(cache.Size, Is.EqualTo(1));
        Assert.That(cache.Find("/page.html").Item1, Is.True);
        Assert.That(cache.Find("/data.json").Item1, Is.False, "a file the filter excludes is not read on lookup either");

        using var all = new FileCache();
        all.InsertPath(tree.Www);
        Assert.That(all.Size, Is.EqualTo(3), "the default *.* includes names without an extension, as in NetCoreServer");
    }

    [Test]
    public void TheHandlerDecidesWhatIsCachedAndSeesTheFileItReads()
    {
        using var tree = new TempTree();
        tree.Write("a.css", "x{}");
        using var cache = new FileCache();
        StaticFile? seen = null;

        var inserted = cache.InsertPath(tree.Www, "/", "*.*", TimeSpan.FromMinutes(5), (c, key, value, timeout) =>
        {
            seen = FileCache.LoadingFile;
            Assert.That(timeout, Is.EqualTo(TimeSpan.FromMinutes(5)));
            return c.Add(key, Encoding.UTF8.GetBytes("wrapped:" + Text(value)), timeout);
        });

        Assert.That(inserted, Is.True);
        Assert.That(FindText(cache, "/a.css"), Is.EqualTo("wrapped:x{}"));
        Assert.That(seen, Is.Not.Null, "LoadingFile is set while the handler runs");
        Assert.That(seen!.ContentType, Is.EqualTo("text/css; charset=utf-8"));
        Assert.That(seen.Length, Is.EqualTo(3));
        Assert.That(FileCache.LoadingFile, Is.Null, "and cleared after it");
    }

    [Test]
    public void AHandlerReturningFalseMakesInsertPathFail()
    {
        using var tree = new TempTree();
        tree.Write("a.txt", "a");
        using var cache = new FileCache();

        Assert.That(cache.InsertPath(tree.Www, handler: (_, _, _, _) => false), Is.False);
        Assert.That(cache.Empty, Is.True);
    }

    [Test]
    public void AFileChangedOnDiskIsReadAgainOnTheNextLookup()
    {
        using var tree = new TempTree();
        var file = tree.Write("app.js", "v1");
        using var cache = new FileCache();
        cache.InsertPath(tree.Www);
        Assert.That(FindText(cache, "/app.js"), Is.EqualTo("v1"));

        File.WriteAllText(file, "version 2");
        Assert.That(FindText(cache, "/app.js"), Is.EqualTo("version 2"), "a new length is noticed");

        // Same length: only the write time tells; set it explicitly so the test does not depend on timestamp resolution.
        var written = File.GetLastWriteTimeUtc(file);
        File.WriteAllText(file, "version 3");
        File.SetLastWriteTimeUtc(file, written.AddSeconds(5));
        Assert.That(FindText(cache, "/app.js"), Is.EqualTo("version 3"), "a new write time is noticed");
        Assert.That(cache.Size, Is.EqualTo(1));
    }

    [Test]
    public void AFileDeletedOnDiskIsGoneOnTheNextLookup()
    {
        using var tree = new TempTree();
        var file = tree.Write("gone.txt", "bye");
        using var cache = new FileCache();
        cache.InsertPath(tree.Www);

        File.Delete(file);

        Assert.That(cache.Find("/gone.txt").Item1, Is.False);
        Assert.That(cache.Empty, Is.True, "the entry was dropped, not only hidden");
    }

    [Test]
    public void AFileCreatedAfterInsertPathIsReadOnItsFirstLookup()
    {
        using var tree = new TempTree();
        using var cache = new FileCache();
        cache.InsertPath(tree.Www, "/static");

        tree.Write("new/late.txt", "late");

        Assert.That(FindText(cache, "/static/new/late.txt"), Is.EqualTo("late"));
        Assert.That(cache.Size, Is.EqualTo(1));
    }

    [Test]
    public void AnEntryExpiresAfterItsTimeout()
    {
        using var cache = new FileCache();
        cache.Add("/forever", "f"u8.ToArray());
        cache.Add("/short", "s"u8.ToArray(), TimeSpan.FromMilliseconds(50));

        // Wait on the observable condition itself, bounded; the assertion is that it happens, not when.
        var deadline = Stopwatch.StartNew();
        while (cache.Find("/short").Item1 && deadline.Elapsed < TimeSpan.FromSeconds(10))
            Thread.Sleep(10);

        Assert.That(cache.Find("/short").Item1, Is.False, "the 50 ms entry expired within 10 s");
        Assert.That(cache.Find("/forever").Item1, Is.True, "an entry without timeout stays");
        Assert.That(cache.Size, Is.EqualTo(1));
    }

    [Test]
    public void AnEntryLivesExactlyItsTimeout()
    {
        var clock = new ManualClock();
        using var cache = new FileCache(clock);
        cache.Add("/k", "v"u8.ToArray(), TimeSpan.FromSeconds(10));

        clock.Advance(TimeSpan.FromSeconds(10) - TimeSpan.FromTicks(1));
        Assert.That(cache.Find("/k").Item1, Is.True, "alive one tick before its timeout");
        Assert.That(cache.Size, Is.EqualTo(1));

        clock.Advance(TimeSpan.FromTicks(1));
        Assert.That(cache.Size, Is.Zero, "gone at its timeout, without a lookup");
        Assert.That(cache.Find("/k").Item1, Is.False);
    }

    [Test]
    public void AFileEntryIsReadAgainAfterItsTimeout()
    {
        using var tree = new TempTree();
        tree.Write("a.txt", "a");
        var clock = new ManualClock();
        using var cache = new FileCache(clock);
        var reads = 0;
        cache.InsertPath(tree.Www, "/", "*.*", TimeSpan.FromMinutes(1), (c, key, value, timeout) =>
        {
            Interlocked.Increment(ref reads);
            return c.Add(key, value, timeout);
        });
        Assert.That(cache.Find("/a.txt").Item1, Is.True);
        Assert.That(reads, Is.EqualTo(1), "a lookup of a current file does not read it");

        clock.Advance(TimeSpan.FromMinutes(1));

        Assert.That(cache.Size, Is.Zero, "the entry expired");
        Assert.That(FindText(cache, "/a.txt"), Is.EqualTo("a"), "and is read again on its next lookup");
        Assert.That(reads, Is.EqualTo(2));
    }

    [Test]
    public void TheTotalSizeNeverExceedsItsBound()
    {
        using var tree = new TempTree();
        foreach (var name in new[] { "a", "b", "c", "d" })
            tree.WriteBytes(name + ".bin", new byte[1000]);
        using var cache = new FileCache { MaxTotalSize = 3 * PerFile };

        cache.InsertPath(tree.Www);

        Assert.That(cache.Size, Is.EqualTo(3), "insert stops caching when the bound is reached");
        Assert.That(cache.TotalSize, Is.EqualTo(3 * PerFile));
        foreach (var key in new[] { "/a.bin", "/b.bin", "/c.bin", "/d.bin" })
        {
            Assert.That(cache.Find(key).Item1, Is.True, $"{key} is found (a file left out is read on lookup, evicting another)");
            Assert.That(cache.TotalSize, Is.LessThanOrEqualTo(cache.MaxTotalSize));
        }
        Assert.That(cache.Size, Is.EqualTo(3));
    }

    [Test]
    public void FileEntriesAreEvictedLeastRecentlyUsedFirst()
    {
        using var tree = new TempTree();
        foreach (var name in new[] { "a", "b", "c", "d" })
            tree.WriteBytes(name + ".bin", new byte[1000]);
        using var cache = new FileCache { MaxTotalSize = 3 * PerFile };
        var reads = 0;
        cache.InsertPath(tree.Www, handler: (c, key, value, timeout) =>
        {
            reads++;
            return c.Add(key, value, timeout);
        });
        foreach (var key in new[] { "/c.bin", "/b.bin", "/a.bin" })
            cache.Find(key);
        Assert.That(cache.Find("/d.bin").Item1, Is.True);
        reads = 0;

        // After c, b, a were used in that order, c was the least recently used when d came in.
        foreach (var key in new[] { "/a.bin", "/b.bin", "/d.bin" })
            cache.Find(key);
        Assert.That(reads, Is.Zero, "a, b and d are cached");
        cache.Find("/c.bin");
        Assert.That(reads, Is.EqualTo(1), "c was evicted and is read again");
    }

    [Test]
    public void ValuesAddedByHandAreNeverEvictedAndAnAddThatCannotFitFails()
    {
        using var tree = new TempTree();
        tree.WriteBytes("f.bin", new byte[500]);
        using var cache = new FileCache { MaxTotalSize = 2000 };

        Assert.That(cache.Add("/big", new byte[5000]), Is.False, "larger than the bound");
        Assert.That(cache.Add("/m1", new byte[800]), Is.True);
        Assert.That(cache.Add("/m2", new byte[800]), Is.True);
        cache.InsertPath(tree.Www);

        Assert.That(cache.Find("/f.bin").Item1, Is.False, "no room left that eviction could free");
        Assert.That(cache.Find("/m1").Item1 && cache.Find("/m2").Item1, Is.True);
        Assert.That(cache.Add("/m2", new byte[5000]), Is.False, "a replacement that cannot fit fails ...");
        Assert.That(cache.Find("/m2").Item2, Has.Length.EqualTo(800), "... and keeps the previous value");

        cache.MaxTotalSize = 100;
        Assert.That(cache.Size, Is.EqualTo(2), "lowering the bound keeps values added by hand");
        Assert.That(cache.Add("/m3", new byte[1]), Is.False, "but nothing more fits");
        Assert.Throws<ArgumentOutOfRangeException>(() => cache.MaxTotalSize = 0);
    }

    [Test]
    public void LoweringTheBoundEvictsFileEntries()
    {
        using var tree = new TempTree();
        tree.WriteBytes("a.bin", new byte[1000]);
        tree.WriteBytes("b.bin", new byte[1000]);
        using var cache = new FileCache();
        cache.InsertPath(tree.Www);
        Assert.That(cache.Size, Is.EqualTo(2));

        cache.MaxTotalSize = 1500;

        Assert.That(cache.Size, Is.EqualTo(1));
        Assert.That(cache.TotalSize, Is.LessThanOrEqualTo(1500));
    }

    [Test]
    public void ADisposedCacheStaysEmpty()
    {
        using var tree = new TempTree();
        tree.Write("a.txt", "a");
        var cache = new FileCache();
        cache.InsertPath(tree.Www);

        cache.Dispose();

        Assert.That(cache.Empty, Is.True);
        Assert.That(cache.Add("/k", [1]), Is.False);
        Assert.That(cache.InsertPath(tree.Www), Is.False);
        Assert.That(cache.Find("/a.txt").Item1, Is.False);
        cache.Dispose();
    }

    [Test]
    public async Task LookupsAddsAndRewritesFromManyThreadsKeepTheAccountingExact()
    {
        using var tree = new TempTree();
        var file = tree.Write("hot.txt", "0");
        using var cache = new FileCache();
        cache.InsertPath(tree.Www);
        var failures = new ConcurrentQueue<string>();

        var readers = Enumerable.Range(0, 4).Select(r => Task.Run(() =>
        {
            for (var i = 0; i < 2000; i++)
            {
                var (found, value) = cache.Find("/hot.txt");
                if (found && !int.TryParse(Text(value), out _))
                    failures.Enqueue("torn read: " + Text(value));
                cache.Add($"/r{r}/{i % 10}", new byte[i % 50], i % 3 == 0 ? TimeSpan.FromMilliseconds(1) : default);
            }
        })).ToArray();
        var writer = Task.Run(() =>
        {
            // Each version is written beside the file and renamed over it (atomic), as deployments do: a reader
            // of a file rewritten in place could legitimately see it half written.
            var next = Path.Combine(tree.Root, "next.txt");
            for (var i = 1; i < 200; i++)
            {
                File.WriteAllText(next, i.ToString());
                File.SetLastWriteTimeUtc(next, DateTime.UtcNow.AddSeconds(i));
                File.Move(next, file, overwrite: true);
            }
        });
        await Wait.For(Task.WhenAll([.. readers, writer]), "readers and the writer finish");

        Assert.That(failures, Is.Empty);
        Assert.That(FindText(cache, "/hot.txt"), Is.EqualTo("199"), "the last write is what a later lookup sees");
        var expected = 0L;
        foreach (var key in new[] { "/hot.txt" }.Concat(Enumerable.Range(0, 4).SelectMany(r => Enumerable.Range(0, 10).Select(i => $"/r{r}/{i}"))))
        {
            if (cache.TryGetValue(key, out var value))
                expected += value.Length + 2L * key.Length + FileCache.EntryOverhead;
        }
        Assert.That(cache.TotalSize, Is.EqualTo(expected), "TotalSize is the sum of what is cached");
    }
}
