using System;
using System.Text.Unicode;

namespace NetCoreServer.Protocols.WebSockets;

/// <summary>
/// Validates UTF-8 fed in pieces that may split a character anywhere (a text message arrives in fragments and in
/// reads of any size). Fails as soon as a byte cannot start or continue a well-formed sequence (RFC 3629: no overlong
/// forms, no surrogates, nothing past U+10FFFF), as RFC 6455 §8.1 asks; whole runs go through the vectorised
/// <see cref="Utf8.IsValid"/>, only a sequence cut at a piece boundary is stepped byte by byte. A mutable struct held
/// in a field: never copy it.
/// </summary>
internal struct WsUtf8Validator
{
    // Continuation bytes still expected, and the range the next one must fall in (RFC 3629 §4).
    private int _needed;
    private byte _lower;
    private byte _upper;

    /// <summary>True when no character is left unfinished: the text may end here.</summary>
    public readonly bool IsComplete => _needed == 0;

    public void Reset() => _needed = 0;

    /// <summary>Takes the next piece; false once the text cannot be valid UTF-8 whatever follows.</summary>
    public bool Append(ReadOnlySpan<byte> bytes)
    {
        var i = 0;
        while (_needed > 0)
        {
            if (i == bytes.Length)
                return true;
            if (!Step(bytes[i++]))
                return false;
        }
        var rest = bytes[i..];
        var tail = IncompleteTailStart(rest);
        if (!Utf8.IsValid(rest[..tail]))
            return false;
        for (var j = tail; j < rest.Length; j++)
        {
            if (!Step(rest[j]))
                return false;
        }
        return true;
    }

    /// <summary>Where a sequence that the end of <paramref name="bytes"/> cuts short begins; the length when none is.</summary>
    private static int IncompleteTailStart(ReadOnlySpan<byte> bytes)
    {
        var length = bytes.Length;
        for (var k = 1; k <= 3 && k <= length; k++)
        {
            var b = bytes[length - k];
            if ((b & 0xC0) == 0x80)
                continue;
            var sequence = b switch
            {
                < 0x80 => 1,
                >= 0xC2 and <= 0xDF => 2,
                >= 0xE0 and <= 0xEF => 3,
                >= 0xF0 and <= 0xF4 => 4,
                // Not a lead byte: the bulk check rejects it.
                _ => 0,
            };
            return sequence > k ? length - k : length;
        }
        return length;
    }

    private bool Step(byte b)
    {
        if (_needed > 0)
        {
            if (b < _lower || b > _upper)
                return false;
            _needed--;
            _lower = 0x80;
            _upper = 0xBF;
            return true;
        }
        switch (b)
        {
            case < 0x80:
                return true;
            case >= 0xC2 and <= 0xDF:
                Expect(1, 0x80, 0xBF);
                return true;
            case 0xE0:
                Expect(2, 0xA0, 0xBF); // no overlong 3-byte forms
                return true;
            case 0xED:
                Expect(2, 0x80, 0x9F); // no UTF-16 surrogates
                return true;
            case >= 0xE1 and <= 0xEF:
                Expect(2, 0x80, 0xBF);
                return true;
            case 0xF0:
                Expect(3, 0x90, 0xBF); // no overlong 4-byte forms
                return true;
            case >= 0xF1 and <= 0xF3:
                Expect(3, 0x80, 0xBF);
                return true;
            case 0xF4:
                Expect(3, 0x80, 0x8F); // nothing past U+10FFFF
                return true;
            default:
                return false;
        }
    }

    private void Expect(int needed, byte lower, byte upper)
    {
        _needed = needed;
        _lower = lower;
        _upper = upper;
    }
}
