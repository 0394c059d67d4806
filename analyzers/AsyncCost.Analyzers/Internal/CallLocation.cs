using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Operations;

namespace AsyncCost.Analyzers.Internal;

/// <summary>Where a finding about a call is shown when its arguments may be long (a lambda's body): the called expression only.</summary>
internal static class CallLocation
{
    /// <summary><c>Task.Factory.StartNew</c> of <c>Task.Factory.StartNew(async () => { … })</c>; the whole call when it is not an invocation expression.</summary>
    public static Location Of(IInvocationOperation invocation) =>
        invocation.Syntax is InvocationExpressionSyntax { Expression: var callee } ? callee.GetLocation() : invocation.Syntax.GetLocation();
}
