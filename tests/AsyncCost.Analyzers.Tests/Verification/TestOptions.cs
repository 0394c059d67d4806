using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;

namespace AsyncCost.Analyzers.Tests.Verification;

/// <summary>
/// What a test can vary about the compilation: output kind, .editorconfig entries
/// (<c>asynccost.AC0004.mode = always</c>) and MSBuild properties seen through CompilerVisibleProperty.
/// </summary>
public sealed record TestOptions
{
    public static TestOptions Default { get; } = new();

    public OutputKind OutputKind { get; init; } = OutputKind.DynamicallyLinkedLibrary;

    public ImmutableDictionary<string, string> EditorConfig { get; init; } = ImmutableDictionary<string, string>.Empty;

    /// <summary>Exposed as <c>build_property.NAME</c>. OutputType follows <see cref="OutputKind"/> unless set here.</summary>
    public ImmutableDictionary<string, string> BuildProperties { get; init; } = ImmutableDictionary<string, string>.Empty;

    /// <summary>Extra source files compiled with the one under test (no markup).</summary>
    public ImmutableArray<string> AdditionalSources { get; init; } = ImmutableArray<string>.Empty;

    /// <summary>Other projects of the solution, each compiled on its own into an assembly the one under test references.</summary>
    public ImmutableArray<string> ReferencedProjects { get; init; } = ImmutableArray<string>.Empty;

    /// <summary>Files the project lists as AdditionalFiles items (path, text).</summary>
    public ImmutableArray<(string Path, string Text)> AdditionalFiles { get; init; } = ImmutableArray<(string Path, string Text)>.Empty;

    public TestOptions WithEditorConfig(string key, string value) => this with { EditorConfig = EditorConfig.SetItem(key, value) };

    public TestOptions WithBuildProperty(string name, string value) => this with { BuildProperties = BuildProperties.SetItem(name, value) };

    internal AnalyzerConfigOptionsProvider CreateProvider()
    {
        var outputType = OutputKind switch
        {
            OutputKind.ConsoleApplication => "Exe",
            OutputKind.WindowsApplication => "WinExe",
            _ => "Library",
        };
        var global = BuildProperties
            .SetItem("OutputType", BuildProperties.TryGetValue("OutputType", out var set) ? set : outputType)
            .ToImmutableDictionary(kv => "build_property." + kv.Key, kv => kv.Value);
        return new DictionaryOptionsProvider(new DictionaryOptions(global), new DictionaryOptions(EditorConfig));
    }

    internal ImmutableArray<AdditionalText> CreateAdditionalTexts() =>
        AdditionalFiles.Select(file => (AdditionalText)new InMemoryText(file.Path, file.Text)).ToImmutableArray();

    private sealed class InMemoryText(string path, string text) : AdditionalText
    {
        public override string Path => path;

        public override Microsoft.CodeAnalysis.Text.SourceText GetText(CancellationToken cancellationToken = default) => Microsoft.CodeAnalysis.Text.SourceText.From(text);
    }

    private sealed class DictionaryOptionsProvider(AnalyzerConfigOptions global, AnalyzerConfigOptions perFile) : AnalyzerConfigOptionsProvider
    {
        public override AnalyzerConfigOptions GlobalOptions => global;

        public override AnalyzerConfigOptions GetOptions(SyntaxTree tree) => perFile;

        public override AnalyzerConfigOptions GetOptions(AdditionalText textFile) => perFile;
    }

    private sealed class DictionaryOptions(ImmutableDictionary<string, string> values) : AnalyzerConfigOptions
    {
        public override bool TryGetValue(string key, [System.Diagnostics.CodeAnalysis.NotNullWhen(true)] out string? value) =>
            values.TryGetValue(key, out value);
    }
}
