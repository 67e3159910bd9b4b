using System.Collections.Generic;
using System.IO;
using System.Text;

namespace NetCoreServer.Docs.Tests;

/// <summary>One fenced C# block of a Markdown file: where it starts, its tag and its text.</summary>
public sealed record CodeBlock(string File, int Line, bool IsMember, string Code)
{
    public override string ToString() => $"{File}:{Line}";

    /// <summary>
    /// The blocks fenced ```csharp or ```csharp member in a Markdown file, <paramref name="name"/> naming it in reports.
    /// Any other C# tag (cs, c#, csharp anything-else) throws, so no snippet escapes the test by its spelling.
    /// </summary>
    public static IEnumerable<CodeBlock> Read(string path, string name)
    {
        var lines = System.IO.File.ReadAllLines(path);
        for (var i = 0; i < lines.Length; i++)
        {
            var fence = lines[i].TrimStart();
            if (!fence.StartsWith("```", System.StringComparison.Ordinal) || fence.Length == 3)
                continue;
            var info = fence[3..].Trim();
            var language = info.Split(' ', 2)[0].ToLowerInvariant();
            var start = i + 1;
            var code = new StringBuilder();
            for (i++; i < lines.Length && lines[i].Trim() != "```"; i++)
                code.AppendLine(lines[i]);
            if (language is not ("csharp" or "cs" or "c#"))
                continue;
            if (info != "csharp" && info != "csharp member")
                throw new InvalidDataException($"{name}:{start}: tag C# blocks ```csharp or ```csharp member, not ```{info}");
            yield return new CodeBlock(name, start + 1, info == "csharp member", code.ToString());
        }
    }
}
