using System.Text;

namespace AsyncCost.Attribution;

/// <summary>
/// Reads the return type out of the runtime's printed method signature, as method events carry it
/// ("instance class System.Threading.Tasks.Task`1&lt;value class System.Decimal&gt;  (int32)"), in the form allocation events
/// print type names ("System.Threading.Tasks.Task`1[System.Decimal]").
/// </summary>
internal static class MethodSignatureText
{
    private static readonly Dictionary<string, string> Primitives = new(StringComparer.Ordinal)
    {
        ["void"] = "System.Void", ["bool"] = "System.Boolean", ["char"] = "System.Char",
        ["int8"] = "System.SByte", ["unsigned int8"] = "System.Byte", ["uint8"] = "System.Byte",
        ["int16"] = "System.Int16", ["unsigned int16"] = "System.UInt16", ["uint16"] = "System.UInt16",
        ["int32"] = "System.Int32", ["unsigned int32"] = "System.UInt32", ["uint32"] = "System.UInt32",
        ["int64"] = "System.Int64", ["unsigned int64"] = "System.UInt64", ["uint64"] = "System.UInt64",
        ["float32"] = "System.Single", ["float64"] = "System.Double",
        ["native int"] = "System.IntPtr", ["native unsigned int"] = "System.UIntPtr", ["native uint"] = "System.UIntPtr",
        ["string"] = "System.String", ["object"] = "System.Object", ["typedref"] = "System.TypedReference",
    };

    /// <summary>The return type as a runtime type name, or null when the text is not a signature.</summary>
    public static string? ReturnType(string? signature)
    {
        if (string.IsNullOrWhiteSpace(signature))
        {
            return null;
        }
        var text = signature.Trim();
        if (text.StartsWith("instance ", StringComparison.Ordinal))
        {
            text = text["instance ".Length..];
        }
        // The return type ends where the parameter list starts: the first '(' outside angle brackets.
        var open = TopLevel(text, '(').DefaultIfEmpty(-1).First();
        return open > 0 ? TypeName(text[..open].Trim()) : null;
    }

    /// <summary>"class A`1&lt;value class B,int32&gt;[]" -> "A`1[B,System.Int32][]".</summary>
    private static string TypeName(string text)
    {
        foreach (var prefix in (string[])["class ", "value class ", "valuetype "])
        {
            if (text.StartsWith(prefix, StringComparison.Ordinal))
            {
                text = text[prefix.Length..];
                break;
            }
        }
        var suffixStart = text.Length;
        while (suffixStart > 0 && text[suffixStart - 1] is '[' or ']' or '&' or '*' or ',')
        {
            suffixStart--;
        }
        var (core, suffix) = (text[..suffixStart].Trim(), text[suffixStart..]);
        var open = core.IndexOf('<', StringComparison.Ordinal);
        if (open < 0 || !core.EndsWith('>'))
        {
            return (Primitives.TryGetValue(core, out var primitive) ? primitive : core) + suffix;
        }
        var builder = new StringBuilder(core[..open]).Append('[');
        builder.AppendJoin(",", SplitArguments(core[(open + 1)..^1]).Select(TypeName));
        return builder.Append(']').Append(suffix).ToString();
    }

    private static IEnumerable<string> SplitArguments(string text)
    {
        var start = 0;
        foreach (var comma in TopLevel(text, ','))
        {
            yield return text[start..comma].Trim();
            start = comma + 1;
        }
        yield return text[start..].Trim();
    }

    /// <summary>Where <paramref name="separator"/> stands outside angle brackets (generic arguments), in order.</summary>
    private static IEnumerable<int> TopLevel(string text, char separator)
    {
        var depth = 0;
        for (var i = 0; i < text.Length; i++)
        {
            if (text[i] == '<')
            {
                depth++;
            }
            else if (text[i] == '>')
            {
                depth--;
            }
            else if (text[i] == separator && depth == 0)
            {
                yield return i;
            }
        }
    }
}
