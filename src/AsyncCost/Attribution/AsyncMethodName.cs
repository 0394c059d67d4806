using System.Globalization;
using System.Text;

namespace AsyncCost.Attribution;

/// <summary>What kind of compiler-generated type a name denotes.</summary>
public enum GeneratedTypeKind
{
    /// <summary>The state machine of an async (or iterator) method: <c>&lt;GetAsync&gt;d__3</c>.</summary>
    StateMachine,

    /// <summary>The state machine of an async local function: <c>&lt;&lt;Main&gt;g__Local|0_0&gt;d</c>.</summary>
    LocalFunctionStateMachine,

    /// <summary>The state machine of an async lambda: <c>&lt;&lt;Main&gt;b__0_0&gt;d</c>.</summary>
    LambdaStateMachine,

    /// <summary>A closure (display class) of a method: <c>&lt;&gt;c__DisplayClass3_0</c>. The member is known only by its ordinal.</summary>
    Closure,
}

/// <summary>
/// A compiler-generated async type name turned back into the user's method.
/// <see cref="MethodKey"/> is the join key shared with the analyzer (SARIF property "AsyncCostMethod"):
/// namespace-qualified, nested types joined with '.', no generic arity or arguments, then the member; an async local
/// function adds its name (<c>Ns.Program.Main.Local</c>) and an async lambda adds <c>lambda#k</c>, k being the compiler's
/// lambda ordinal within the member (<c>&lt;Main&gt;b__0_2</c> is <c>Ns.Program.Main.lambda#2</c>). Top-level statements keep the
/// compiler's member name <c>&lt;Main&gt;$</c> in the key (that is the symbol name the analyzer sees) and show as <c>Main</c>.
/// </summary>
public sealed record AsyncMethodName
{
    /// <summary>The containing user type: "Ns.Outer.Inner" (no arity).</summary>
    public required string TypeKey { get; init; }

    /// <summary>The containing type for display, with generic parameters: "Ns.Cache&lt;T&gt;".</summary>
    public required string TypeDisplayName { get; init; }

    /// <summary>The user-declared member as the compiler names it ("GetAsync", "&lt;Main&gt;$" for top-level statements); null for a closure whose member is known only by ordinal.</summary>
    public string? MemberName { get; init; }

    /// <summary>The local function's name, or "lambda#k" for an async lambda (k: <see cref="LambdaOrdinal"/>); null for a plain async method.</summary>
    public string? LocalName { get; init; }

    /// <summary>The compiler's ordinal of the enclosing member within its type (the 3 in <c>d__3</c>, <c>DisplayClass3_0</c>, <c>b__3_0</c>, <c>|3_0</c>), if present.
    /// Lambdas and local functions compiled into a display class carry no member ordinal (<c>&lt;Main&gt;b__1</c>).</summary>
    public int? MemberOrdinal { get; init; }

    /// <summary>The compiler's ordinal of a lambda or local function among its member's lambdas and local functions (the 1 in <c>b__3_1</c>, <c>b__1</c>, <c>|3_1</c>).</summary>
    public int? LambdaOrdinal { get; init; }

    /// <summary>What the generated type is.</summary>
    public GeneratedTypeKind Kind { get; init; }

    /// <summary>The join key: "Ns.Outer.Inner.Method", "Ns.Outer.Inner.Method.Local", "Ns.Outer.Inner.Method.lambda#2" (for a closure with unknown member: the type key).</summary>
    public string MethodKey => MemberName is null ? TypeKey : LocalName is null ? TypeKey + "." + MemberName : TypeKey + "." + MemberName + "." + LocalName;

    /// <summary>The type key of a state machine known only by its nested name ("?.GetAsync" until resolved).</summary>
    public const string UnknownType = "?";

    /// <summary>The compiler-generated type's own nested name ("&lt;GetAsync&gt;d__3"): what TPL events and a class state
    /// machine's allocation events call it; with <see cref="UnknownType"/> it is all that is known.</summary>
    public string? ShortName { get; init; }

    /// <summary>The segment a lambda adds to its member's key, before '#' and its ordinal; the analyzer writes it alone when it cannot know the ordinal.</summary>
    public const string LambdaSegment = "lambda";

    /// <summary>A readable name: "Ns.Cache&lt;T&gt;.GetAsync", "Ns.Program.Main.Local", "Ns.Program.Main.lambda#2".</summary>
    public string DisplayName
    {
        get
        {
            var name = MemberName is null
                ? TypeDisplayName + ".<closure #" + MemberOrdinal?.ToString(CultureInfo.InvariantCulture) + ">"
                : TypeDisplayName + "." + (MemberName == TopLevelEntryPoint ? "Main" : MemberName);
            return LocalName is null ? name : name + "." + LocalName;
        }
    }

    /// <summary>
    /// Parses a runtime type name of a state machine or closure, e.g. "Ns.Outer+Inner+&lt;GetAsync&gt;d__3",
    /// "Ns.Program+&lt;&lt;Main&gt;g__Local|0_0&gt;d", "Ns.Cache`1+&lt;GetAsync&gt;d__2[[System.Int32, ...]]".
    /// Nested types may be separated by '+' (runtime), '/' (IL) or '.'. Returns null for names that are not compiler-generated async types.
    /// </summary>
    public static AsyncMethodName? Parse(string typeName)
    {
        ArgumentNullException.ThrowIfNull(typeName);
        var segments = SplitNestedTypes(StripGenericArguments(typeName.Trim()));
        if (segments.Count < 2)
        {
            return null;
        }

        var generated = ParseGeneratedSegment(segments[^1]);
        if (generated is null)
        {
            return null;
        }

        // User types are the segments before the first compiler-generated one (<>c, <>c__DisplayClass..., a lambda's state machine parent).
        var userCount = segments.FindIndex(s => s.StartsWith('<'));
        if (userCount <= 0)
        {
            return null;
        }

        var keyBuilder = new StringBuilder();
        var displayBuilder = new StringBuilder();
        for (var i = 0; i < userCount; i++)
        {
            if (i > 0)
            {
                keyBuilder.Append('.');
                displayBuilder.Append('.');
            }
            var (name, arity) = SplitArity(segments[i]);
            keyBuilder.Append(name);
            displayBuilder.Append(name);
            if (arity > 0)
            {
                displayBuilder.Append('<').AppendJoin(",", Enumerable.Range(1, arity).Select(n => arity == 1 ? "T" : "T" + n.ToString(CultureInfo.InvariantCulture))).Append('>');
            }
        }

        return generated with { TypeKey = keyBuilder.ToString(), TypeDisplayName = displayBuilder.ToString(), ShortName = segments[^1] };
    }

    /// <summary>Parses one generated segment ("&lt;GetAsync&gt;d__3", "&lt;&gt;c__DisplayClass3_0", "&lt;&lt;Main&gt;g__Local|0_0&gt;d").</summary>
    private static AsyncMethodName? ParseGeneratedSegment(string segment)
    {
        if (!TrySplitBracketed(segment, out var inner, out var suffix))
        {
            return null;
        }

        if (inner.Length == 0 && suffix.StartsWith("c__DisplayClass", StringComparison.Ordinal))
        {
            return new AsyncMethodName
            {
                TypeKey = "",
                TypeDisplayName = "",
                Kind = GeneratedTypeKind.Closure,
                MemberOrdinal = LeadingOrdinal(suffix["c__DisplayClass".Length..]),
            };
        }

        // State machines end in "d__N" (methods) or "d" (local functions and lambdas, whose ordinals are in the inner name);
        // a generic method's state machine adds its arity ("d__3`1", "d`1").
        suffix = SplitArity(suffix).Name;
        if (!suffix.StartsWith('d') || (suffix.Length > 1 && !suffix.StartsWith("d__", StringComparison.Ordinal)))
        {
            return null;
        }

        // Top-level statements' state machine ("<<Main>$>d__0") is a plain method's, whose name has brackets of its own.
        if (!inner.StartsWith('<') || inner == TopLevelEntryPoint)
        {
            return new AsyncMethodName
            {
                TypeKey = "",
                TypeDisplayName = "",
                Kind = GeneratedTypeKind.StateMachine,
                MemberName = inner,
                MemberOrdinal = suffix.Length > 3 ? LeadingOrdinal(suffix[3..]) : null,
            };
        }

        // "<Main>g__Local|0_0" (local function) or "<Main>b__0_0" (lambda).
        if (!TrySplitBracketed(inner, out var member, out var rest))
        {
            return null;
        }
        if (rest.StartsWith("g__", StringComparison.Ordinal))
        {
            var bar = rest.IndexOf('|', StringComparison.Ordinal);
            var (memberOrdinal, lambdaOrdinal) = bar < 0 ? (null, null) : Ordinals(rest[(bar + 1)..]);
            return new AsyncMethodName
            {
                TypeKey = "",
                TypeDisplayName = "",
                Kind = GeneratedTypeKind.LocalFunctionStateMachine,
                MemberName = member,
                LocalName = bar < 0 ? rest[3..] : rest[3..bar],
                MemberOrdinal = memberOrdinal,
                LambdaOrdinal = lambdaOrdinal,
            };
        }
        if (rest.StartsWith("b__", StringComparison.Ordinal))
        {
            var (memberOrdinal, lambdaOrdinal) = Ordinals(rest[3..]);
            return new AsyncMethodName
            {
                TypeKey = "",
                TypeDisplayName = "",
                Kind = GeneratedTypeKind.LambdaStateMachine,
                MemberName = member,
                LocalName = lambdaOrdinal is { } k ? LambdaSegment + "#" + k.ToString(CultureInfo.InvariantCulture) : LambdaSegment,
                MemberOrdinal = memberOrdinal,
                LambdaOrdinal = lambdaOrdinal,
            };
        }
        return null;
    }

    /// <summary>"3_1" -> (3, 1); "1" (inside a display class, which is per member already) -> (null, 1). An edit-and-continue generation ("#2") is ignored.</summary>
    private static (int? Member, int? Lambda) Ordinals(string text)
    {
        var underscore = text.IndexOf('_', StringComparison.Ordinal);
        return underscore < 0
            ? (null, LeadingOrdinal(text))
            : (LeadingOrdinal(text[..underscore]), LeadingOrdinal(text[(underscore + 1)..]));
    }

    /// <summary>The compiler's name for the entry point of top-level statements; users know it as Main.</summary>
    private const string TopLevelEntryPoint = "<Main>$";

    /// <summary>Splits "&lt;inner&gt;suffix" at the bracket matching the first '&lt;'.</summary>
    private static bool TrySplitBracketed(string text, out string inner, out string suffix)
    {
        inner = suffix = "";
        if (!text.StartsWith('<'))
        {
            return false;
        }
        var depth = 0;
        for (var i = 0; i < text.Length; i++)
        {
            if (text[i] == '<')
            {
                depth++;
            }
            else if (text[i] == '>' && --depth == 0)
            {
                inner = text[1..i];
                suffix = text[(i + 1)..];
                return true;
            }
        }
        return false;
    }

    private static int? LeadingOrdinal(string text)
    {
        var end = 0;
        while (end < text.Length && char.IsAsciiDigit(text[end]))
        {
            end++;
        }
        return end == 0 ? null : int.Parse(text.AsSpan(0, end), CultureInfo.InvariantCulture);
    }

    /// <summary>"Ns.Cache`1+&lt;X&gt;d__0[[System.Int32, lib]]" -> "Ns.Cache`1+&lt;X&gt;d__0" (the first '[' starts the arguments).</summary>
    private static string StripGenericArguments(string typeName)
    {
        var bracket = typeName.IndexOf('[', StringComparison.Ordinal);
        var withoutArgs = bracket < 0 ? typeName : typeName[..bracket];
        var comma = withoutArgs.IndexOf(',', StringComparison.Ordinal); // assembly-qualified
        return comma < 0 ? withoutArgs : withoutArgs[..comma];
    }

    /// <summary>Splits on '+' or '/', or on '.' outside angle brackets before a generated segment, into nested type names;
    /// the first element keeps its namespace ("Ns.Outer").</summary>
    private static List<string> SplitNestedTypes(string name)
    {
        var parts = new List<string>();
        var depth = 0;
        var start = 0;
        for (var i = 0; i < name.Length; i++)
        {
            var c = name[i];
            if (c == '<')
            {
                if (depth == 0 && i > start && name[i - 1] == '.')
                {
                    // C#-style "Ns.Outer.<GetAsync>d__3": the dot before a generated segment separates it.
                    parts.Add(name[start..(i - 1)]);
                    start = i;
                }
                depth++;
            }
            else if (c == '>')
            {
                depth--;
            }
            else if ((c == '+' || c == '/') && depth == 0)
            {
                parts.Add(name[start..i]);
                start = i + 1;
            }
        }
        parts.Add(name[start..]);
        return parts;
    }

    private static (string Name, int Arity) SplitArity(string segment)
    {
        var tick = segment.IndexOf('`', StringComparison.Ordinal);
        return tick < 0
            ? (segment, 0)
            : (segment[..tick], LeadingOrdinal(segment[(tick + 1)..]) ?? 0);
    }
}
