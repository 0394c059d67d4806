using System.Text;
using System.Text.Json;

namespace AsyncCost.Cli.Rendering;

/// <summary>Where in a file that is not valid JSON the reader gave up, in the file's own words: the field it last read.</summary>
internal static class JsonErrorPlace
{
    /// <summary>The dotted path of the last field read before the JSON stops being valid ("methods.Shop.Orders.ReserveAsync.hopsPerOperation"),
    /// or null when it fails before any field.</summary>
    public static string? FieldBefore(string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        var reader = new Utf8JsonReader(Encoding.UTF8.GetBytes(text), new JsonReaderOptions { CommentHandling = JsonCommentHandling.Skip });
        // The names of the objects entered, and the last field read in the innermost one.
        var path = new List<string?>();
        string? last = null;
        try
        {
            while (reader.Read())
            {
                switch (reader.TokenType)
                {
                    case JsonTokenType.PropertyName:
                        last = reader.GetString();
                        if (path.Count > 0)
                        {
                            path[^1] = last;
                        }
                        break;
                    case JsonTokenType.StartObject or JsonTokenType.StartArray:
                        path.Add(null);
                        break;
                    case JsonTokenType.EndObject or JsonTokenType.EndArray:
                        path.RemoveAt(path.Count - 1);
                        break;
                }
            }
        }
        catch (JsonException)
        {
            var names = path.OfType<string>().ToList();
            return names.Count > 0 ? string.Join(".", names) : last;
        }
        return null;
    }
}
