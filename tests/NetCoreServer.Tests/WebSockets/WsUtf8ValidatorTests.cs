using System;
using System.Text.Unicode;
using NUnit.Framework;
using NetCoreServer.Protocols.WebSockets;

namespace NetCoreServer.Tests.WebSockets;

/// <summary>
/// The incremental UTF-8 validator agrees with the BCL's whole-buffer check on 100,000 seeded random byte strings
/// (built from valid characters, near-misses and stray bytes) cut into random pieces, and fails at the first byte that
/// rules out valid text.
/// </summary>
[TestFixture]
public sealed class WsUtf8ValidatorTests
{
    private static readonly byte[][] s_parts =
    [
        "a"u8.ToArray(), "é"u8.ToArray(), "€"u8.ToArray(), "𝄞"u8.ToArray(), "\u07FF"u8.ToArray(), "\uFFFD"u8.ToArray(), "\U0010FFFF"u8.ToArray(),
        [0xC0, 0x80], [0xC1, 0xBF], [0xE0, 0x80, 0x80], [0xE0, 0x9F, 0xBF], [0xED, 0xA0, 0x80], [0xED, 0x9F, 0xBF], [0xF0, 0x8F, 0xBF, 0xBF],
        [0xF4, 0x90, 0x80, 0x80], [0xF5], [0xFF], [0x80], [0xBF], [0xC2], [0xE1, 0x80], [0xF1, 0x80, 0x80],
    ];

    [Test]
    public void PiecesAgreeWithTheWholeBufferCheck()
    {
        var random = new Random(3629);
        var bytes = new byte[64];
        int valid = 0, invalid = 0;
        for (var trial = 0; trial < 100_000; trial++)
        {
            var length = 0;
            while (length < 48)
            {
                var part = s_parts[random.Next(random.Next(3) == 0 ? s_parts.Length : 7)];
                part.CopyTo(bytes, length);
                length += part.Length;
            }
            var text = bytes.AsSpan(0, random.Next(0, length + 1));
            var expected = Utf8.IsValid(text);
            var validator = default(WsUtf8Validator);
            var ok = true;
            var at = 0;
            while (ok && at < text.Length)
            {
                var piece = Math.Min(text.Length - at, random.Next(0, 6));
                ok = validator.Append(text.Slice(at, piece));
                at += piece;
            }
            Assert.That(ok && validator.IsComplete, Is.EqualTo(expected), $"trial {trial}: {Convert.ToHexString(text)}");
            if (expected)
                valid++;
            else
                invalid++;
        }
        TestContext.Out.WriteLine($"{valid} valid, {invalid} invalid");
        Assert.That(valid, Is.GreaterThan(5_000));
        Assert.That(invalid, Is.GreaterThan(5_000));
    }

    [TestCase("E0 80", 2, TestName = "an overlong 3-byte lead fails at its second byte")]
    [TestCase("ED A0", 2, TestName = "a surrogate fails at its second byte")]
    [TestCase("F4 90", 2, TestName = "a code point past U+10FFFF fails at its second byte")]
    [TestCase("61 C0", 2, TestName = "C0 fails at once")]
    [TestCase("CE BA E1 BD B9 CF 83 CE BC CE B5 F5", 12, TestName = "a byte that never starts a character fails at once")]
    public void InvalidTextFailsAtTheFirstByteThatRulesItOut(string hex, int failsAt)
    {
        var bytes = Convert.FromHexString(hex.Replace(" ", ""));
        var validator = default(WsUtf8Validator);
        for (var i = 0; i < bytes.Length; i++)
        {
            var ok = validator.Append(bytes.AsSpan(i, 1));
            Assert.That(ok, Is.EqualTo(i + 1 < failsAt), $"after byte {i + 1}");
            if (!ok)
                return;
        }
    }
}
