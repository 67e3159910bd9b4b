using System;
using System.Collections.Generic;

namespace NetCoreServer.Protocols.Http;

/// <summary>The file extensions <see cref="HttpResponse.SetContentType"/> knows, with their media types (NetCoreServer's set).</summary>
internal static class HttpMimeTypes
{
    private static readonly Dictionary<string, string> s_types = new(StringComparer.OrdinalIgnoreCase)
    {
        [".html"] = "text/html", [".css"] = "text/css", [".js"] = "text/javascript", [".vue"] = "text/html", [".xml"] = "text/xml",
        [".csv"] = "text/csv", [".plain"] = "text/plain", [".richtext"] = "text/richtext", [".rtf"] = "text/rtf",
        [".rtx"] = "text/rtx", [".sgml"] = "text/sgml", [".strings"] = "text/strings", [".url"] = "text/uri-list",

        [".atom"] = "application/atom+xml", [".fastsoap"] = "application/fastsoap", [".gzip"] = "application/gzip",
        [".json"] = "application/json", [".map"] = "application/json", [".pdf"] = "application/pdf",
        [".ps"] = "application/postscript", [".soap"] = "application/soap+xml", [".sql"] = "application/sql",
        [".xslt"] = "application/xslt+xml", [".zip"] = "application/zip", [".zlib"] = "application/zlib",

        [".aac"] = "audio/aac", [".ac3"] = "audio/ac3", [".mp3"] = "audio/mpeg", [".ogg"] = "audio/ogg",
        [".ttf"] = "font/ttf",

        [".bmp"] = "image/bmp", [".emf"] = "image/emf", [".gif"] = "image/gif", [".jpg"] = "image/jpeg",
        [".jpm"] = "image/jpm", [".jpx"] = "image/jpx", [".jrx"] = "image/jrx", [".png"] = "image/png",
        [".svg"] = "image/svg+xml", [".tiff"] = "image/tiff", [".wmf"] = "image/wmf",

        [".http"] = "message/http", [".s-http"] = "message/s-http",
        [".mesh"] = "model/mesh", [".vrml"] = "model/vrml",

        [".H264"] = "video/H264", [".H265"] = "video/H265", [".mp4"] = "video/mp4", [".mpeg"] = "video/mpeg", [".raw"] = "video/raw",
    };

    /// <summary>The media type for <paramref name="extension"/> (with its dot, any case), or null.</summary>
    public static string? Find(string extension) => s_types.GetValueOrDefault(extension);
}
