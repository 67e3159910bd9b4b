using NUnit.Framework;
using NetCoreServer.Protocols.Http;

namespace NetCoreServer.Tests.Http;

[TestFixture]
public sealed class MimeTypesTests
{
    [TestCase("html", "text/html")]
    [TestCase("css", "text/css")]
    [TestCase("js", "text/javascript")]
    [TestCase("mjs", "text/javascript")]
    [TestCase("json", "application/json")]
    [TestCase("png", "image/png")]
    [TestCase("jpg", "image/jpeg")]
    [TestCase("jpeg", "image/jpeg")]
    [TestCase("gif", "image/gif")]
    [TestCase("svg", "image/svg+xml")]
    [TestCase("ico", "image/x-icon")]
    [TestCase("txt", "text/plain")]
    [TestCase("wasm", "application/wasm")]
    [TestCase("woff2", "font/woff2")]
    [TestCase("woff", "font/woff")]
    [TestCase("pdf", "application/pdf")]
    [TestCase("webp", "image/webp")]
    [TestCase("mp4", "video/mp4")]
    [TestCase("H264", "video/H264")]
    public void AKnownExtensionHasItsMediaType(string extension, string expected)
    {
        Assert.That(MimeTypes.TryGetMediaType(extension, out var mediaType), Is.True);
        Assert.That(mediaType, Is.EqualTo(expected));
    }

    [TestCase(".html")]
    [TestCase("HTML")]
    [TestCase(".Html")]
    public void ExtensionsMatchWithOrWithoutTheDotAndInAnyCase(string extension)
    {
        Assert.That(MimeTypes.TryGetMediaType(extension, out var mediaType), Is.True);
        Assert.That(mediaType, Is.EqualTo("text/html"));
    }

    [TestCase("")]
    [TestCase(".")]
    [TestCase("exe-not-listed")]
    public void AnUnknownExtensionIsNotFound(string extension)
        => Assert.That(MimeTypes.TryGetMediaType(extension, out _), Is.False);

    [TestCase("/index.html", "text/html; charset=utf-8")]
    [TestCase("/css/site.CSS", "text/css; charset=utf-8")]
    [TestCase("app.js", "text/javascript; charset=utf-8")]
    [TestCase("/data/x.json", "application/json")]
    [TestCase("/img/logo.png", "image/png")]
    [TestCase("/module.wasm", "application/wasm")]
    [TestCase("C:\\site\\fonts\\a.woff2", "font/woff2")]
    [TestCase("/archive.tar.gz", "application/gzip")]
    [TestCase("/README", MimeTypes.Default)]
    [TestCase("/.htaccess", MimeTypes.Default)]
    [TestCase("/dir.v2/file", MimeTypes.Default)]
    [TestCase("/blob.xyz", MimeTypes.Default)]
    public void ForPathGivesTheContentTypeWithACharsetForText(string path, string expected)
        => Assert.That(MimeTypes.ForPath(path), Is.EqualTo(expected));

    [Test]
    public void TheDefaultIsOctetStream() => Assert.That(MimeTypes.Default, Is.EqualTo("application/octet-stream"));
}
