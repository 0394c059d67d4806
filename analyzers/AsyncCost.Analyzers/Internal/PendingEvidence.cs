using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;

namespace AsyncCost.Analyzers.Internal;

/// <summary>
/// What proves that a task a thread blocks on may still be pending there: a framework operation that completes
/// asynchronously (network or file I/O, a timer, work queued to the thread pool, a contended lock, a channel, a
/// process), or a method declared here that awaits one on the path the call's constant arguments take (a <c>bool
/// async</c> flag passed false, an enum mode passed Synchronous: the awaits of the other arm do not count). A blocking
/// finding is a warning only with such evidence; where completion cannot be seen (an interface or virtual call, a
/// delegate, a package's method, a parameter) it stays a suggestion: on unseen code that proof is missing far more
/// often than the task is pending. One per compilation; answers for a callee and its arguments are cached.
/// </summary>
internal sealed class PendingEvidence
{
    // How many calls deep a callee's awaits are followed (FetchAsync → ReadFrameAsync → Stream.ReadAsync is two).
    private const int MaxDepth = 4;

    private readonly WellKnownAsyncTypes _async;
    private readonly MethodBodies _bodies;
    private readonly Implementations _implementations;
    private readonly ConcurrentDictionary<(IMethodSymbol Method, string Arguments, int Depth), Pending?> _callees = new();

    public PendingEvidence(Compilation compilation, WellKnownAsyncTypes async, MethodBodies bodies)
    {
        _async = async;
        _bodies = bodies;
        _implementations = new Implementations(compilation);
    }

    /// <summary>What may keep the task pending, and how it is reached: "network I/O (Client.FetchAsync → HttpClient.GetStringAsync)".</summary>
    public sealed class Pending
    {
        public Pending(PendingKind kind, string path)
        {
            Kind = kind;
            Path = path;
        }

        public PendingKind Kind { get; }

        /// <summary>The calls from the blocked one to the framework operation, joined by arrows.</summary>
        public string Path { get; }

        public string Describe() => Kind switch
        {
            PendingKind.Network => "network I/O",
            PendingKind.File => "file or stream I/O",
            PendingKind.Timer => "a timer",
            PendingKind.ThreadPool => "work queued to the thread pool",
            PendingKind.Lock => "a lock another holder releases",
            PendingKind.Channel => "a channel another party writes",
            _ => "another process",
        } + " (" + Path + ")";

        public Pending Through(string caller) => new(Kind, caller + " → " + Path);
    }

    /// <summary>The evidence behind a blocked task expression (a call, or a local of this body given calls), or null.</summary>
    public Pending? Of(IOperation task) => Of(task, new Dictionary<IParameterSymbol, object?>(SymbolEqualityComparer.Default), 0);

    private Pending? Of(IOperation task, IReadOnlyDictionary<IParameterSymbol, object?> constants, int depth)
    {
        foreach (var value in OperationTree.Outcomes(task))
        {
            var found = TaskReference.Strip(value) switch
            {
                IInvocationOperation call => OfCall(call, constants, depth),
                // `var t = FetchAsync(); … t.Result`: what any of the values it is given may be.
                ILocalReferenceOperation local => OperationTree.ValuesGivenTo(local)?
                    .Where(given => given is not ILocalReferenceOperation)
                    .Select(given => Of(given, constants, depth)).FirstOrDefault(p => p is not null),
                IFieldReferenceOperation { Field: var field } => _bodies.InitializerOf(field) is { } initializer ? Of(initializer, constants, depth) : null,
                _ => null,
            };
            if (found is not null)
            {
                return found;
            }
        }
        return null;
    }

    private Pending? OfCall(IInvocationOperation call, IReadOnlyDictionary<IParameterSymbol, object?> constants, int depth)
    {
        var method = call.TargetMethod;
        if (FrameworkKind(call) is { } kind)
        {
            return new Pending(kind, Display(method));
        }
        // Task.WhenAll/WhenAny of pending tasks, and ConfigureAwait or AsTask around one, wait on what they hold.
        if (method.IsStatic && method.Name is "WhenAll" or "WhenAny" && _async.IsTask(method.ContainingType))
        {
            return call.Arguments.SelectMany(a => BlockingCalls.Elements(a.Value) ?? new[] { a.Value })
                .Select(element => Of(element, constants, depth)).FirstOrDefault(p => p is not null);
        }
        if (method.Name is "ConfigureAwait" or "AsTask" or "Preserve" && call.Instance is { } wrapped && _async.IsTaskLike(wrapped.Type?.OriginalDefinition))
        {
            return Of(wrapped, constants, depth);
        }
        if (depth >= MaxDepth)
        {
            return null;
        }
        var passed = Passed(call, constants);
        // A call chosen at run time (interface, virtual) may run any implementation declared here: one that awaits a
        // pending operation under these arguments is evidence; with none declared here, completion cannot be seen.
        return _implementations.Of(method).Select(implementation => OfImplementation(implementation, passed, depth)).FirstOrDefault(p => p is not null);
    }

    private Pending? OfImplementation(IMethodSymbol method, Dictionary<IParameterSymbol, object?> passed, int depth)
    {
        // The implementation's own parameters carry the constants the call passed to the member it implements.
        var own = new Dictionary<IParameterSymbol, object?>(SymbolEqualityComparer.Default);
        foreach (var constant in passed.Where(p => p.Key.Ordinal < method.Parameters.Length))
        {
            own[method.OriginalDefinition.Parameters[constant.Key.Ordinal]] = constant.Value;
        }
        var key = (method.OriginalDefinition, string.Join(",", own.Select(p => p.Key.Ordinal + "=" + p.Value)), depth);
        // Cached per callee, constant arguments and depth (an answer cut short by the depth bound is not reused higher up);
        // a recursive call sees the entry absent and answers on its own, within the bound.
        if (_callees.TryGetValue(key, out var known))
        {
            return known;
        }
        var found = OfCallee(method, own, depth + 1)?.Through(Display(method));
        _callees.TryAdd(key, found);
        return found;
    }

    // The constant arguments a call passes (a literal, or a parameter of the caller whose constant is known), by parameter.
    private static Dictionary<IParameterSymbol, object?> Passed(IInvocationOperation call, IReadOnlyDictionary<IParameterSymbol, object?> constants)
    {
        var passed = new Dictionary<IParameterSymbol, object?>(SymbolEqualityComparer.Default);
        foreach (var argument in call.Arguments)
        {
            if (argument.Parameter is not { } parameter || parameter.Type.SpecialType != SpecialType.System_Boolean && parameter.Type.TypeKind != TypeKind.Enum)
            {
                continue;
            }
            var value = TaskReference.Strip(argument.Value)!;
            if (value.ConstantValue.HasValue)
            {
                passed[parameter.OriginalDefinition] = value.ConstantValue.Value;
            }
            else if (value is IParameterReferenceOperation { Parameter: var outer } && constants.TryGetValue(outer.OriginalDefinition, out var known))
            {
                passed[parameter.OriginalDefinition] = known;
            }
        }
        return passed;
    }

    // An async callee: an await of a pending task it reaches under these arguments. A task-returning one: a value it returns.
    private Pending? OfCallee(IMethodSymbol method, IReadOnlyDictionary<IParameterSymbol, object?> passed, int depth)
    {
        if (_bodies.Of(method) is not { } body)
        {
            return null;
        }
        foreach (var operation in OperationTree.SameMethod(body))
        {
            var awaited = operation switch
            {
                IAwaitOperation { Operation: var value } when method.IsAsync => value,
                IReturnOperation { ReturnedValue: { } value } when !method.IsAsync => value,
                _ => null,
            };
            if (awaited is not null && !IsUnreachable(operation, passed))
            {
                if (TaskReference.Strip(awaited) is IInvocationOperation { TargetMethod.Name: "Yield", TargetMethod.IsStatic: true } yield && _async.IsTask(yield.TargetMethod.ContainingType))
                {
                    return new Pending(PendingKind.ThreadPool, "Task.Yield");
                }
                if (Of(awaited, passed, depth) is { } found)
                {
                    return found;
                }
            }
        }
        return null;
    }

    // Whether a condition around the operation contradicts the constant arguments (`if (async) await …` with async false).
    private static bool IsUnreachable(IOperation operation, IReadOnlyDictionary<IParameterSymbol, object?> passed) =>
        passed.Count > 0 && EnclosingConditions.Of(operation, crossFunctions: false).Any(known =>
            EnclosingConditions.Implies(known.Condition, known.Value, (leaf, value) => Evaluate(leaf, passed) is { } actual && actual != value));

    // A bool parameter, or `mode == Mode.X` / `mode != Mode.X`, with the constant passed for it.
    private static bool? Evaluate(IOperation leaf, IReadOnlyDictionary<IParameterSymbol, object?> passed)
    {
        switch (leaf)
        {
            case IParameterReferenceOperation { Parameter: var parameter } when passed.TryGetValue(parameter.OriginalDefinition, out var value) && value is bool flag:
                return flag;
            case IBinaryOperation { OperatorKind: BinaryOperatorKind.Equals or BinaryOperatorKind.NotEquals } comparison:
                var (reference, constant) = TaskReference.Strip(comparison.LeftOperand) is IParameterReferenceOperation left
                    ? (left, TaskReference.Strip(comparison.RightOperand)!.ConstantValue)
                    : (TaskReference.Strip(comparison.RightOperand) as IParameterReferenceOperation, TaskReference.Strip(comparison.LeftOperand)!.ConstantValue);
                if (reference is null || !constant.HasValue || !passed.TryGetValue(reference.Parameter.OriginalDefinition, out var argument))
                {
                    return null;
                }
                return Equals(argument, constant.Value) == (comparison.OperatorKind == BinaryOperatorKind.Equals);
            default:
                return null;
        }
    }

    // The framework's operations that complete later by their nature. A receiver's static type narrows a stream:
    // a MemoryStream or a StringReader completes at once, a Stream field may be a socket's.
    private PendingKind? FrameworkKind(IInvocationOperation call)
    {
        var method = call.TargetMethod;
        var type = method.ContainingType;
        if (method.DeclaringSyntaxReferences.Length > 0 || type is null)
        {
            return null;
        }
        var ns = type.ContainingNamespace?.ToDisplayString() ?? "";
        var receiver = (OperationTree.ReceiverOf(call) is { } instance ? TaskReference.Strip(instance)?.Type : null) ?? type;
        var isAsyncName = method.Name.EndsWith("Async", StringComparison.Ordinal);
        switch (ns)
        {
            case "System.Net.Http" when isAsyncName && IsOrDerives(type, "HttpMessageInvoker", "HttpMessageHandler"):
            case "System.Net.Sockets" or "System.Net.Security" or "System.Net.WebSockets" or "System.Net.Quic" or "System.Net.Mail" or "System.Net.NetworkInformation" when isAsyncName:
            case "System.Net" when isAsyncName && type.Name is "Dns" or "WebRequest" or "HttpWebRequest" or "WebClient" or "HttpListener":
                return PendingKind.Network;
            case "System.Net.Http.Json" when isAsyncName && IsOrDerives(receiver, "HttpClient"):
                return PendingKind.Network;
            case "System.IO" when isAsyncName && method.IsStatic && type.Name is "File" or "RandomAccess":
                return PendingKind.File;
            case "System.IO" when isAsyncName && !method.IsStatic && IsStreamIo(receiver):
                return IsOrDerives(receiver, "NetworkStream", "SslStream") ? PendingKind.Network : PendingKind.File;
            case "System.IO.Pipelines" when isAsyncName && type.Name is "PipeReader" or "PipeWriter":
                return PendingKind.Network;
            case "System.Threading.Tasks" when method.IsStatic && SymbolEqualityComparer.Default.Equals(type, _async.Task):
                return method.Name switch
                {
                    "Delay" when !IsZeroDelay(call) => PendingKind.Timer,
                    "Run" => PendingKind.ThreadPool,
                    _ => null,
                };
            case "System.Threading.Tasks" when method.Name == "StartNew" && type.Name == "TaskFactory":
                return PendingKind.ThreadPool;
            case "System.Threading" when method.Name == "WaitAsync" && type.Name == "SemaphoreSlim":
            case "System.Threading" when method.Name == "WaitForNextTickAsync" && type.Name == "PeriodicTimer":
                return type.Name == "PeriodicTimer" ? PendingKind.Timer : PendingKind.Lock;
            case "System.Threading.Channels" when method.Name is "ReadAsync" or "WaitToReadAsync" or "WriteAsync" or "WaitToWriteAsync":
                return PendingKind.Channel;
            case "System.Diagnostics" when method.Name == "WaitForExitAsync" && type.Name == "Process":
                return PendingKind.Process;
            default:
                return null;
        }
    }

    // A stream or reader whose static type may be backed by a device, socket or pipe: not one over memory or a string.
    private static bool IsStreamIo(ITypeSymbol? type) =>
        type is not null
        && IsOrDerives(type, "Stream", "TextReader", "TextWriter")
        && !IsOrDerives(type, "MemoryStream", "UnmanagedMemoryStream", "StringReader", "StringWriter");

    private static bool IsOrDerives(ITypeSymbol type, params string[] names)
    {
        for (var current = type; current is not null; current = current.BaseType)
        {
            if (Array.IndexOf(names, current.Name) >= 0 && current.ContainingNamespace?.ToDisplayString() is { } ns && ns.StartsWith("System", StringComparison.Ordinal))
            {
                return true;
            }
        }
        return false;
    }

    // Task.Delay(0) and Task.Delay(TimeSpan.Zero) hand back a completed task.
    private static bool IsZeroDelay(IInvocationOperation delay) =>
        delay.Arguments.FirstOrDefault() is { Value: var value }
        && TaskReference.Strip(value) is { ConstantValue: { HasValue: true, Value: 0 } } or IFieldReferenceOperation { Field: { Name: "Zero", IsStatic: true, ContainingType.Name: "TimeSpan" } };

    private static string Display(IMethodSymbol method) => method.ContainingType.Name + "." + method.Name;
}

/// <summary>What keeps a task pending, for the message and for which rules print a warning.</summary>
internal enum PendingKind
{
    Network,
    File,
    Timer,
    ThreadPool,
    Lock,
    Channel,
    Process,
}
