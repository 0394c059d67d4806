using System.Collections;
using System.Reflection;
using System.Runtime.Loader;
using System.Text;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeFixes;
using Microsoft.CodeAnalysis.Diagnostics;

namespace AsyncCost.Analyzers.Tests.Verification;

/// <summary>
/// Proves a code fix leaves a program's behaviour as it was: applies every fix the rule offers to a small program,
/// compiles the program before and after with Roslyn, runs both, and compares what each scenario did — the events it
/// noted in order, the value it returned or the exception it ended with.
/// </summary>
/// <remarks>
/// A program is a file with a <c>public static class Scenarios</c> whose public static parameterless methods are run
/// one after another (by name), each awaited when it returns a task. Code records side effects with
/// <c>Observed.Note(value)</c>; the class comes with the harness (<see cref="ObservedSource"/>).
/// </remarks>
public static class FixBehaviour<TAnalyzer, TCodeFix>
    where TAnalyzer : DiagnosticAnalyzer, new()
    where TCodeFix : CodeFixProvider, new()
{
    /// <summary>Asserts the fix applies at least <paramref name="minimumFixes"/> times and the program behaves the same after.</summary>
    public static async Task VerifyAsync(string program, int minimumFixes = 1, TestOptions? options = null)
    {
        var (before, after, fixedProgram) = await RunBeforeAndAfterAsync(program, minimumFixes, options);
        Assert.True(before == after, $"The fix changed what the program does.\nBefore:\n{before}\nAfter:\n{after}\nFixed program:\n{fixedProgram}");
    }

    /// <summary>The program's transcript before and after every fix offered (at least <paramref name="minimumFixes"/> of them).</summary>
    public static async Task<(string Before, string After, string FixedProgram)> RunBeforeAndAfterAsync(string program, int minimumFixes = 1, TestOptions? options = null)
    {
        options ??= TestOptions.Default;
        options = options with { AdditionalSources = options.AdditionalSources.Add(FixBehaviourRuntime.ObservedSource) };
        var (fixedProgram, applied) = await CodeFixVerifier<TAnalyzer, TCodeFix>.ApplyEveryFixAsync(program, options);
        Assert.True(applied >= minimumFixes, $"The fix applied {applied} time(s), expected at least {minimumFixes}:\n{fixedProgram}");
        return (await FixBehaviourRuntime.RunAsync(program, options), await FixBehaviourRuntime.RunAsync(fixedProgram, options), fixedProgram);
    }
}

/// <summary>Compiles, loads and runs a scenario program; the part of the harness that does not depend on the rule.</summary>
public static class FixBehaviourRuntime
{
    /// <summary>The side-effect log scenarios write to.</summary>
    public const string ObservedSource = """
        public static class Observed
        {
            public static readonly System.Collections.Generic.List<string> Events = new();
            public static void Note(object? value) { lock (Events) { Events.Add(value?.ToString() ?? "null"); } }
        }
        """;

    // A scenario that has not finished by then is reported as hung (a deadlock is a behaviour too), not waited on forever.
    private static readonly TimeSpan HangLimit = TimeSpan.FromSeconds(30);

    /// <summary>Each scenario's transcript, one line each.</summary>
    public static async Task<string> RunAsync(string program, TestOptions options)
    {
        var compilation = TestCompilation.Create(options.AdditionalSources.Prepend(program), OutputKind.DynamicallyLinkedLibrary);
        TestCompilation.AssertCompiles(compilation);
        using var image = new MemoryStream();
        var emitted = compilation.Emit(image);
        Assert.True(emitted.Success, string.Join("\n", emitted.Diagnostics));
        image.Position = 0;

        var context = new AssemblyLoadContext("fix-behaviour", isCollectible: true);
        try
        {
            var assembly = context.LoadFromStream(image);
            var scenarios = assembly.GetType("Scenarios") ?? throw new InvalidOperationException("The program has no class Scenarios.");
            var events = (List<string>)assembly.GetType("Observed")!.GetField("Events")!.GetValue(null)!;
            var transcript = new StringBuilder();
            foreach (var scenario in scenarios.GetMethods(BindingFlags.Public | BindingFlags.Static).Where(m => m.GetParameters().Length == 0).OrderBy(m => m.Name, StringComparer.Ordinal))
            {
                lock (events)
                {
                    events.Clear();
                }
                var outcome = await OutcomeAsync(scenario);
                lock (events)
                {
                    transcript.Append(scenario.Name).Append(": [").AppendJoin(", ", events).Append("] ").AppendLine(outcome);
                }
            }
            return transcript.ToString();
        }
        finally
        {
            context.Unload();
        }
    }

    private static async Task<string> OutcomeAsync(MethodInfo scenario)
    {
        try
        {
            var returned = scenario.Invoke(null, null);
            if (AsTask(returned) is not { } task)
            {
                return "returned " + Show(returned);
            }
            if (await Task.WhenAny(task, Task.Delay(HangLimit)) != task)
            {
                return "hung";
            }
            await task;
            var result = task.GetType().GetProperty("Result")?.GetValue(task);
            return task.GetType().IsGenericType ? "returned " + Show(result) : "completed";
        }
        catch (Exception exception)
        {
            var thrown = exception is TargetInvocationException { InnerException: { } inner } ? inner : exception;
            return $"threw {thrown.GetType().Name}: {thrown.Message}" + (thrown is AggregateException aggregate
                ? " {" + string.Join(", ", aggregate.InnerExceptions.Select(e => e.GetType().Name + ": " + e.Message)) + "}"
                : "");
        }
    }

    // Task and Task<T> as they are; ValueTask and ValueTask<T> through AsTask, which the scenario's caller would await.
    private static Task? AsTask(object? returned) => returned switch
    {
        Task task => task,
        null => null,
        _ when returned.GetType().GetMethod("AsTask", Type.EmptyTypes) is { } asTask => (Task?)asTask.Invoke(returned, null),
        _ => null,
    };

    private static string Show(object? value) => value switch
    {
        null => "null",
        string text => '"' + text + '"',
        IEnumerable items => "[" + string.Join(", ", items.Cast<object?>().Select(Show)) + "]",
        _ => value.ToString() ?? "",
    };
}
