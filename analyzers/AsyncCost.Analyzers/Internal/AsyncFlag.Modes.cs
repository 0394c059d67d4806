using System;
using System.Collections.Generic;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;

namespace AsyncCost.Analyzers.Internal;

/// <summary>A mode parameter's polarity (which values are the asynchronous mode) and a flag read in one body.</summary>
internal sealed partial class AsyncFlag
{
    /// <summary>
    /// Which values of a mode parameter are the asynchronous mode: those equal to <see cref="_key"/> when
    /// <see cref="_asyncWhenEqual"/>, the others when not. A <c>bool async</c> flag is asynchronous when true; an
    /// enum mode called with <c>IOBehavior.Synchronous</c> is asynchronous wherever it is not that member.
    /// </summary>
    private sealed class Polarity(object key, bool asyncWhenEqual) : IEquatable<Polarity>
    {
        private static readonly Polarity WhenTrue = new(true, asyncWhenEqual: true);
        private readonly object _key = key;
        private readonly bool _asyncWhenEqual = asyncWhenEqual;

        /// <summary>The mode a caller passing the constant <paramref name="passed"/> asks for: none when it passes <c>true</c> to a <c>bool</c> (the async mode).</summary>
        public static Polarity? Passed(ITypeSymbol type, object passed) =>
            type.SpecialType == SpecialType.System_Boolean
                ? passed is false ? WhenTrue : null
                : new Polarity(passed, asyncWhenEqual: false);

        /// <summary>
        /// The modes a split in <paramref name="body"/> may choose between: a <c>bool</c> is async when true; an enum,
        /// for each member it is compared with, when equal to it or when not.
        /// </summary>
        public static IEnumerable<Polarity> Candidates(IOperation body, IParameterSymbol parameter)
        {
            if (parameter.Type.SpecialType == SpecialType.System_Boolean)
            {
                yield return WhenTrue;
                yield break;
            }
            var seen = new HashSet<object>();
            foreach (var operation in OperationTree.SameMethod(body))
            {
                if (operation is IBinaryOperation or IIsPatternOperation
                    && ComparedWithConstant(operation, true) is { } comparison
                    && OperationTree.ReferencedSymbol(TaskReference.Strip(comparison.Subject)!) is IParameterSymbol compared
                    && SymbolEqualityComparer.Default.Equals(compared, parameter)
                    && comparison.Constant.ConstantValue.Value is { } constant
                    && seen.Add(constant))
                {
                    yield return new Polarity(constant, asyncWhenEqual: true);
                    yield return new Polarity(constant, asyncWhenEqual: false);
                }
            }
        }

        /// <summary>Whether the mode is asynchronous where the parameter equals (or, with <paramref name="equal"/> false, differs from) the constant; null when that does not decide it.</summary>
        public bool? IsAsync(object? constant, bool equal) =>
            equal ? Equals(constant, _key) == _asyncWhenEqual
            : Equals(constant, _key) ? !_asyncWhenEqual
            : null;

        /// <summary>Whether a callee without a body is trusted in this mode: a <c>bool</c> named for asynchrony passed false, an enum member named for synchrony.</summary>
        public bool IsNamedSynchronous(IParameterSymbol parameter) =>
            parameter.Type.SpecialType == SpecialType.System_Boolean
                ? IsAsynchronyName(parameter.Name)
                : !_asyncWhenEqual && parameter.Type.GetMembers().OfType<IFieldSymbol>().Any(member =>
                    member.HasConstantValue && Equals(member.ConstantValue, _key) && IsSynchronyName(member.Name));

        public bool Equals(Polarity? other) => other is not null && other._asyncWhenEqual == _asyncWhenEqual && Equals(other._key, _key);

        public override bool Equals(object? obj) => Equals(obj as Polarity);

        public override int GetHashCode() => _key.GetHashCode() * 2 + (_asyncWhenEqual ? 1 : 0);
    }

    /// <summary>A mode parameter of a function and the locals that copy it (<c>var a = async;</c>, never reassigned), with the values that are its asynchronous mode.</summary>
    private sealed class Flag
    {
        private readonly HashSet<ISymbol> _symbols;
        private readonly ITypeSymbol _type;

        private Flag(HashSet<ISymbol> symbols, ITypeSymbol type, Polarity polarity)
        {
            _symbols = symbols;
            _type = type;
            Polarity = polarity;
        }

        public Polarity Polarity { get; }

        public static Flag In(IOperation body, IParameterSymbol parameter, Polarity polarity)
        {
            var symbols = new HashSet<ISymbol>(SymbolEqualityComparer.Default) { parameter };
            var reassigned = new HashSet<ISymbol>(SymbolEqualityComparer.Default);
            var copies = new List<ILocalSymbol>();
            foreach (var operation in OperationTree.SameMethod(body))
            {
                switch (operation)
                {
                    case IVariableDeclaratorOperation { Initializer.Value: var value } declarator
                        when TaskReference.Strip(value) is IParameterReferenceOperation reference && SymbolEqualityComparer.Default.Equals(reference.Parameter, parameter):
                        copies.Add(declarator.Symbol);
                        break;
                    case IAssignmentOperation { Target: ILocalReferenceOperation target }:
                        reassigned.Add(target.Local);
                        break;
                }
            }
            symbols.UnionWith(copies.Where(copy => !reassigned.Contains(copy)));
            return new Flag(symbols, parameter.Type, polarity);
        }

        public bool Refers(IOperation? operation) =>
            TaskReference.Strip(operation) is { } stripped && OperationTree.ReferencedSymbol(stripped) is { } symbol
            && stripped is IParameterReferenceOperation or ILocalReferenceOperation && _symbols.Contains(symbol);

        public bool RunsOnlyWhen(IOperation operation, bool isAsync) =>
            EnclosingConditions.Of(operation, crossFunctions: false).Any(known =>
                EnclosingConditions.Implies(known.Condition, known.Value, (leaf, leafValue) => ModeWhere(leaf, leafValue) == isAsync));

        // What a leaf condition having a value says about the mode: `async` itself, `io == X`, `io != X`, `io is X`.
        private bool? ModeWhere(IOperation leaf, bool leafValue)
        {
            if (_type.SpecialType == SpecialType.System_Boolean && Refers(leaf))
            {
                return Polarity.IsAsync(leafValue, equal: true);
            }
            return ComparedWithConstant(leaf, leafValue) is { } comparison && Refers(comparison.Subject)
                ? Polarity.IsAsync(comparison.Constant.ConstantValue.Value, comparison.Equal)
                : null;
        }

        /// <summary>The call (ConfigureAwait, AsTask, Preserve looked through) that receives the mode, and the ordinal of the parameter it fills (of the same type, so the mode means the same there).</summary>
        public (IInvocationOperation Call, int Ordinal)? IsArgumentOf(IOperation awaited)
        {
            var operation = TaskReference.Strip(awaited);
            while (operation is IInvocationOperation { TargetMethod.Name: ConfigureAwaitCalls.MethodName or "AsTask" or "Preserve", Instance: { } passedOn })
            {
                operation = TaskReference.Strip(passedOn);
            }
            if (operation is IInvocationOperation call)
            {
                foreach (var argument in call.Arguments)
                {
                    if (argument.Parameter is { } parameter && SymbolEqualityComparer.Default.Equals(parameter.Type, _type) && Refers(argument.Value))
                    {
                        return (call, parameter.Ordinal);
                    }
                }
            }
            return null;
        }
    }
}
