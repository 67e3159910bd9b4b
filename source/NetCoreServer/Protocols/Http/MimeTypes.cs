using System;
using System.Collections.Frozen;
using System.Collections.Generic;

namespace NetCoreServer.Protocols.Http;

/// <summary>
/// Content types by file extension, for static files and <c>HttpResponse.SetContentType</c>. Extensions are matched
/// without regard to case, with or without the leading dot. Thread-safe (read-only).
/// </summary>
internal static class MimeTypes
{
    /// <summary>What an unknown extension is served as (RFC 9110 8.3: a recipient may then sniff, or save the bytes).</summary>
    public const string Default = "application/octet-stream";

    private static readonly FrozenDictionary<string, string> s_byExtension = new Dictionary<string, string>(StringComparer.OrdinalIgnoreCase)
    {
        // Text and documents.
        ["html"] = "text/html",
        ["htm"] = "text/html",
        ["css"] = "text/css",
        ["js"] = "text/javascript",      // RFC 9239
        ["mjs"] = "text/javascript",
        ["txt"] = "text/plain",
        ["plain"] = "text/plain",
        ["csv"] = "text/csv",
        ["md"] = "text/markdown",
        ["xml"] = "text/xml",
        ["vue"] = "text/html",
        ["rtf"] = "text/rtf",
        ["richtext"] = "text/richtext",
        ["rtx"] = "text/rtx",
        ["sgml"] = "text/sgml",
        ["strings"] = "text/strings",
        ["url"] = "text/uri-list",
        ["ics"] = "text/calendar",
        ["vtt"] = "text/vtt",

        // Application data.
        ["json"] = "application/json",
        ["map"] = "application/json",
        ["webmanifest"] = "application/manifest+json",
        ["wasm"] = "application/wasm",   // browsers compile streamed WebAssembly only with this type
        ["pdf"] = "application/pdf",
        ["zip"] = "application/zip",
        ["gz"] = "application/gzip",
        ["gzip"] = "application/gzip",
        ["zlib"] = "application/zlib",
        ["tar"] = "application/x-tar",
        ["atom"] = "application/atom+xml",
        ["rss"] = "application/rss+xml",
        ["xhtml"] = "application/xhtml+xml",
        ["xslt"] = "application/xslt+xml",
        ["soap"] = "application/soap+xml",
        ["fastsoap"] = "application/fastsoap",
        ["sql"] = "application/sql",
        ["ps"] = "application/postscript",
        ["bin"] = Default,

        // Images.
        ["png"] = "image/png",
        ["jpg"] = "image/jpeg",
        ["jpeg"] = "image/jpeg",
        ["gif"] = "image/gif",
        ["svg"] = "image/svg+xml",
        ["ico"] = "image/x-icon",
        ["webp"] = "image/webp",
        ["avif"] = "image/avif",
        ["bmp"] = "image/bmp",
        ["tif"] = "image/tiff",
        ["tiff"] = "image/tiff",
        ["emf"] = "image/emf",
        ["wmf"] = "image/wmf",

        // Fonts.
        ["woff"] = "font/woff",
        ["woff2"] = "font/woff2",
        ["ttf"] = "font/ttf",
        ["otf"] = "font/otf",

        // Audio and video.
        ["mp3"] = "audio/mpeg",
        ["aac"] = "audio/aac",
        ["ac3"] = "audio/ac3",
        ["ogg"] = "audio/ogg",
        ["oga"] = "audio/ogg",
        ["opus"] = "audio/opus",
        ["wav"] = "audio/wav",
        ["flac"] = "audio/flac",
        ["mp4"] = "video/mp4",
        ["m4v"] = "video/mp4",
        ["webm"] = "video/webm",
        ["ogv"] = "video/ogg",
        ["mpeg"] = "video/mpeg",
        ["h264"] = "video/H264",
        ["h265"] = "video/H265",
        ["raw"] = "video/raw",

        // Messages and models.
        ["http"] = "message/http",
        ["s-http"] = "message/s-http",
        ["mesh"] = "model/mesh",
        ["vrml"] = "model/vrml",
    }.ToFrozenDictionary(StringComparer.OrdinalIgnoreCase);

    private static readonly FrozenDictionary<string, string>.AlternateLookup<ReadOnlySpan<char>> s_lookup
        = s_byExtension.GetAlternateLookup<ReadOnlySpan<char>>();

    /// <summary>The media type registered for an extension ("html", ".HTML"), without parameters.</summary>
    /// <param name="extension">The extension, with or without its leading dot.</param>
    /// <param name="mediaType">"text/html", "image/png", …; null when unknown.</param>
    /// <returns>True when the extension is known.</returns>
    public static bool TryGetMediaType(ReadOnlySpan<char> extension, out string mediaType)
    {
        if (extension.StartsWith('.'))
            extension = extension[1..];
        if (s_lookup.TryGetValue(extension, out var found))
        {
            mediaType = found;
            return true;
        }
        mediaType = null!;
        return false;
    }

    /// <summary>
    /// The Content-Type for a file name or path: its media type, with "; charset=utf-8" for text/* types (static
    /// text is assumed to be UTF-8, which every ASCII file also is); <see cref="Default"/> when the extension is
    /// unknown or missing.
    /// </summary>
    /// <param name="path">A file name, path or URL path ("/css/site.css").</param>
    /// <returns>The value for a Content-Type header.</returns>
    public static string ForPath(ReadOnlySpan<char> path)
    {
        var name = path[(path.LastIndexOfAny('/', '\\') + 1)..];
        var dot = name.LastIndexOf('.');
        if (dot <= 0 || !TryGetMediaType(name[(dot + 1)..], out var mediaType))
            return Default;
        return mediaType.StartsWith("text/", StringComparison.Ordinal) ? mediaType + "; charset=utf-8" : mediaType;
    }
}
