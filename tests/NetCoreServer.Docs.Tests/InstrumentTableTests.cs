using System;
using System.Collections.Generic;
using System.Diagnostics.Metrics;
using System.IO;
using System.Linq;
using System.Reflection;
using System.Text;
using NetCoreServer.Redis;
using NUnit.Framework;

namespace NetCoreServer.Docs.Tests;

/// <summary>
/// docs/guides/operations.md's instrument table is the code's: every instrument of the library's meters
/// (<c>NetCoreServer</c>, <c>NetCoreServer.Redis</c>) has a row with its kind, unit and description, and no row names
/// one that does not exist. On a mismatch the message holds the rows the code publishes, to paste.
/// </summary>
[TestFixture]
public sealed class InstrumentTableTests
{
    private static readonly string s_guide = Path.Combine(DocumentationSnippetTests.RepositoryRoot, "docs", "guides", "operations.md");

    [Test]
    public void TheOperationsGuideListsEveryInstrumentAsTheCodeCreatesIt()
    {
        var published = PublishedInstruments();
        Assert.That(published, Has.Count.GreaterThan(20), "the meters published their instruments");
        var documented = DocumentedRows();
        var expected = string.Join("\n", published.Select(i => $"| `{i.Name}` | {KindOf(i)} | `{i.Unit}` | ... | {i.Description} |"));

        Assert.That(documented.Keys, Is.EquivalentTo(published.Select(i => i.Name)), "instrument names; the code publishes:\n" + expected);
        foreach (var instrument in published)
        {
            var row = documented[instrument.Name];
            Assert.That(row.Kind, Is.EqualTo(KindOf(instrument)), instrument.Name + ": kind");
            Assert.That(row.Unit, Is.EqualTo($"`{instrument.Unit}`"), instrument.Name + ": unit");
            Assert.That(row.Meaning, Does.StartWith(instrument.Description ?? ""), instrument.Name + ": the meaning starts with the instrument's description");
        }
    }

    /// <summary>Every instrument of the two meters, made by their process-wide instances and read by a listener.</summary>
    private static List<Instrument> PublishedInstruments()
    {
        var instruments = new List<Instrument>();
        using var listener = new MeterListener
        {
            InstrumentPublished = (instrument, _) =>
            {
                if (instrument.Meter.Name is ServerMeter.Name or RedisBackplane.MeterName && instrument.Meter.Scope == null)
                {
                    lock (instruments)
                    {
                        if (!instruments.Any(i => i.Name == instrument.Name))
                            instruments.Add(instrument);
                    }
                }
            },
        };
        // The meters are made on first use: LibraryInstruments.For(null) and BackplaneMeter.For(null), internal.
        Create(typeof(ServerMeter).Assembly, "NetCoreServer.Diagnostics.LibraryInstruments");
        Create(typeof(RedisBackplane).Assembly, "NetCoreServer.Redis.BackplaneMeter");
        listener.Start();
        return instruments;
    }

    private static void Create(Assembly assembly, string typeName)
    {
        var type = assembly.GetType(typeName, throwOnError: true)!;
        type.GetMethod("For", BindingFlags.Public | BindingFlags.Static)!.Invoke(null, [null]);
    }

    private static string KindOf(Instrument instrument)
    {
        var type = instrument.GetType().GetGenericTypeDefinition();
        return type == typeof(Counter<>) ? "counter"
            : type == typeof(UpDownCounter<>) ? "up-down counter"
            : type == typeof(Histogram<>) ? "histogram"
            : type == typeof(ObservableCounter<>) ? "observable counter"
            : type == typeof(ObservableUpDownCounter<>) ? "observable up-down counter"
            : type == typeof(ObservableGauge<>) ? "observable gauge"
            : type.Name;
    }

    /// <summary>The rows of the guide's tables whose first cell is an instrument name: name to (kind, unit, meaning).</summary>
    private static Dictionary<string, (string Kind, string Unit, string Meaning)> DocumentedRows()
    {
        var rows = new Dictionary<string, (string, string, string)>();
        foreach (var line in File.ReadLines(s_guide, Encoding.UTF8))
        {
            var cells = line.Split('|').Select(c => c.Trim()).ToArray();
            // | `name` | kind | `unit` | tags | meaning | UDP |
            if (cells.Length < 7 || !cells[1].StartsWith("`netcoreserver.", StringComparison.Ordinal) && !cells[1].StartsWith("`http.", StringComparison.Ordinal))
                continue;
            rows[cells[1].Trim('`')] = (cells[2], cells[3], cells[5]);
        }
        return rows;
    }
}
