using System;
using System.Diagnostics.CodeAnalysis;

namespace NetCoreServer;

/// <summary>String helpers NetCoreServer offers as extension methods. Comparisons are ordinal (culture plays no part).</summary>
public static class StringExtensions
{
    /// <summary>The string without one trailing <paramref name="toRemove"/>; unchanged when it does not end with it.</summary>
    /// <param name="self">The string; null or empty is returned as it is.</param>
    /// <param name="toRemove">The character to remove from the end.</param>
    /// <returns>"path/" → "path" for '/'; "path//" → "path/".</returns>
    [return: NotNullIfNotNull(nameof(self))]
    public static string? RemoveSuffix(this string? self, char toRemove)
        => !string.IsNullOrEmpty(self) && self[^1] == toRemove ? self[..^1] : self;

    /// <summary>The string without one trailing <paramref name="toRemove"/>; unchanged when it does not end with it.</summary>
    /// <param name="self">The string; null or empty is returned as it is.</param>
    /// <param name="toRemove">The suffix to remove (ordinal comparison).</param>
    /// <returns>"index.html" → "index" for ".html".</returns>
    /// <exception cref="ArgumentNullException"><paramref name="toRemove"/> is null and <paramref name="self"/> is not empty.</exception>
    [return: NotNullIfNotNull(nameof(self))]
    public static string? RemoveSuffix(this string? self, string toRemove)
    {
        if (string.IsNullOrEmpty(self))
            return self;
        ArgumentNullException.ThrowIfNull(toRemove);
        return self.EndsWith(toRemove, StringComparison.Ordinal) ? self[..^toRemove.Length] : self;
    }

    /// <summary>The string without any white-space character (<see cref="char.IsWhiteSpace(char)"/>): " a b\tc\n" → "abc".</summary>
    /// <param name="self">The string; null or empty is returned as it is, and so is a string without white space.</param>
    /// <returns>The string with every white-space character removed.</returns>
    [return: NotNullIfNotNull(nameof(self))]
    public static string? RemoveWhiteSpace(this string? self)
    {
        if (string.IsNullOrEmpty(self))
            return self;
        var count = 0;
        foreach (var c in self)
        {
            if (char.IsWhiteSpace(c))
                count++;
        }
        if (count == 0)
            return self;
        return string.Create(self.Length - count, self, static (destination, source) =>
        {
            var i = 0;
            foreach (var c in source)
            {
                if (!char.IsWhiteSpace(c))
                    destination[i++] = c;
            }
        });
    }
}
