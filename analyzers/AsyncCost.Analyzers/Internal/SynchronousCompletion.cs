using System.Collections.Generic;
using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.FlowAnalysis;
using Microsoft.CodeAnalysis.Operations;

namespace AsyncCost.Analyzers.Internal;

/// <summary>
/// Whether an async method can complete without suspending: a path through its control flow graph from entry to
/// exit that passes no await (a cache hit, an "if initialized return" guard). Throwing paths do not count.
/// </summary>
internal sealed class SynchronousCompletion
{
    private SynchronousCompletion(bool exists, ImmutableArray<IOperation> returnedValues)
    {
        Exists = exists;
        ReturnedValues = returnedValues;
    }

    /// <summary>Some path returns (or falls off the end) without awaiting.</summary>
    public bool Exists { get; }

    /// <summary>The values returned on those paths (empty for Task/ValueTask methods), conversions removed.</summary>
    public ImmutableArray<IOperation> ReturnedValues { get; }

    public static SynchronousCompletion Analyze(ControlFlowGraph graph)
    {
        var exists = false;
        var returned = ImmutableArray.CreateBuilder<IOperation>();
        var visited = new HashSet<int>();
        var pending = new Stack<BasicBlock>();
        pending.Push(graph.Blocks[0]);
        while (pending.Count > 0)
        {
            var block = pending.Pop();
            if (!visited.Add(block.Ordinal))
            {
                continue;
            }
            if (block.Kind == BasicBlockKind.Exit)
            {
                exists = true;
                continue;
            }
            if (Awaits(block))
            {
                continue; // every path through this block suspends (or may): not a synchronous path
            }
            if (block.FallThroughSuccessor is { Semantics: ControlFlowBranchSemantics.Return } && block.BranchValue is { } value)
            {
                returned.Add(ConfigureAwaitCalls.SkipConversions(value));
            }
            Follow(block.ConditionalSuccessor, pending);
            Follow(block.FallThroughSuccessor, pending);
        }
        return new SynchronousCompletion(exists, returned.ToImmutable());
    }

    private static void Follow(ControlFlowBranch? branch, Stack<BasicBlock> pending)
    {
        if (branch is { Destination: { } destination } && branch.Semantics is not (ControlFlowBranchSemantics.Throw or ControlFlowBranchSemantics.Rethrow or ControlFlowBranchSemantics.Error))
        {
            pending.Push(destination);
        }
    }

    private static bool Awaits(BasicBlock block)
    {
        foreach (var operation in block.Operations)
        {
            if (OperationTree.ContainsAwait(operation))
            {
                return true;
            }
        }
        return block.BranchValue is { } value && OperationTree.ContainsAwait(value);
    }
}
