using System;
using NUnit.Framework;

namespace NetCoreServer.Tests.Http;

[TestFixture]
public sealed class StringExtensionsTests
{
    [TestCase("path/", '/', "path")]
    [TestCase("path//", '/', "path/")]
    [TestCase("path", '/', "path")]
    [TestCase("/", '/', "")]
    [TestCase("", '/', "")]
    public void RemoveSuffixCharRemovesOneTrailingCharacter(string self, char suffix, string expected)
        => Assert.That(self.RemoveSuffix(suffix), Is.EqualTo(expected));

    [TestCase("index.html", ".html", "index")]
    [TestCase("index.html.html", ".html", "index.html")]
    [TestCase("index.htm", ".html", "index.htm")]
    [TestCase("INDEX.HTML", ".html", "INDEX.HTML")]
    [TestCase("abc", "", "abc")]
    [TestCase("abc", "abc", "")]
    [TestCase("", "x", "")]
    public void RemoveSuffixStringRemovesOneOrdinalSuffix(string self, string suffix, string expected)
        => Assert.That(self.RemoveSuffix(suffix), Is.EqualTo(expected));

    [Test]
    public void NullIsReturnedAsItIs()
    {
        string? none = null;

        Assert.That(none.RemoveSuffix('/'), Is.Null);
        Assert.That(none.RemoveSuffix("x"), Is.Null);
        Assert.That(none.RemoveWhiteSpace(), Is.Null);
        Assert.Throws<ArgumentNullException>(() => "abc".RemoveSuffix(null!));
    }

    [TestCase(" a b\tc\r\n", "abc")]
    [TestCase("\u00A0no\u2003break\u3000", "nobreak")]
    [TestCase("   ", "")]
    [TestCase("", "")]
    public void RemoveWhiteSpaceRemovesEveryWhiteSpaceCharacter(string self, string expected)
        => Assert.That(self.RemoveWhiteSpace(), Is.EqualTo(expected));

    [Test]
    public void AStringWithoutWhiteSpaceIsReturnedWithoutACopy()
    {
        var text = "compact";

        Assert.That(text.RemoveWhiteSpace(), Is.SameAs(text));
        Assert.That(text.RemoveSuffix('/'), Is.SameAs(text));
    }
}
