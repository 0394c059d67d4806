namespace AsyncCost.Attribution;

/// <summary>
/// A runtime type name as allocation events print it: "Name`1[Arg1,Arg2][]", with arguments either plain
/// ("AsyncStateMachineBox`1[System.Int32,Ns.T+&lt;X&gt;d__0]") or assembly-qualified ("[[System.Int32, System.Private.CoreLib]]").
/// </summary>
internal sealed record RuntimeTypeName(string Name, IReadOnlyList<RuntimeTypeName> Arguments, string ArraySuffix)
{
    /// <summary>Parses a name; malformed text yields the best-effort prefix rather than an exception.</summary>
    public static RuntimeTypeName Parse(string text)
    {
        var position = 0;
        return ParseType(text, ref position);
    }

    private static RuntimeTypeName ParseType(string text, ref int position)
    {
        var start = position;
        var angle = 0;
        while (position < text.Length)
        {
            var c = text[position];
            if (c == '<')
            {
                angle++;
            }
            else if (c == '>')
            {
                angle--;
            }
            else if (angle <= 0 && c is '[' or ']' or ',')
            {
                break;
            }
            position++;
        }
        var name = text[start..position].Trim();
        var arguments = new List<RuntimeTypeName>();
        var arraySuffix = "";
        while (position < text.Length && text[position] == '[')
        {
            var next = position + 1 < text.Length ? text[position + 1] : ']';
            if (next is ']' or ',' or '*')
            {
                var close = text.IndexOf(']', position);
                close = close < 0 ? text.Length - 1 : close;
                arraySuffix += text[position..(close + 1)];
                position = close + 1;
                continue;
            }
            position++; // '['
            while (position < text.Length)
            {
                if (text[position] == '[')
                {
                    position++;
                    arguments.Add(ParseType(text, ref position));
                    SkipPast(text, ref position, ']'); // the ", Assembly, Version=..." part
                }
                else
                {
                    arguments.Add(ParseType(text, ref position));
                }
                if (position < text.Length && text[position] == ',')
                {
                    position++;
                    continue;
                }
                break;
            }
            if (position < text.Length && text[position] == ']')
            {
                position++;
            }
        }
        return new RuntimeTypeName(name, arguments, arraySuffix);
    }

    private static void SkipPast(string text, ref int position, char close)
    {
        while (position < text.Length && text[position] != close)
        {
            position++;
        }
        if (position < text.Length)
        {
            position++;
        }
    }
}
