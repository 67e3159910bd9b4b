using System.Linq;
using Spectre.Console;

namespace NetCoreServer.Performance.Suite;

/// <summary>Prints the report's table to the terminal.</summary>
internal static class ConsoleReport
{
    /// <summary>One table, our rows in bold, failures in red.</summary>
    public static void Print(SuiteReport report)
    {
        // Redirected output has no terminal width; the table needs more than the 80 columns assumed then.
        if (System.Console.IsOutputRedirected)
            AnsiConsole.Profile.Width = 160;
        var table = new Table().Border(TableBorder.Rounded)
            .Title($"NetCoreServer benchmark suite, {report.Date:yyyy-MM-dd HH:mm} UTC, {report.Seconds} s per run");
        for (var i = 0; i < Format.Columns.Length; i++)
        {
            var column = new TableColumn(Format.Columns[i]);
            table.AddColumn(i is >= 3 and <= 7 ? column.RightAligned() : column);
        }
        foreach (var row in report.Rows)
        {
            var style = !row.Measured ? "red" : row.Server == "ours" ? "bold" : "dim";
            table.AddRow(Format.Cells(row).Select(cell => new Markup(Markup.Escape(cell), new Style(decoration: style == "bold" ? Decoration.Bold : style == "dim" ? Decoration.Dim : Decoration.None, foreground: style == "red" ? Color.Red : null))).ToArray());
        }
        AnsiConsole.Write(table);
        AnsiConsole.WriteLine(SuiteReport.Notes);
    }
}
