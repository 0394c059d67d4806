using System.Collections.Generic;
using System.Collections.Immutable;
using System.Composition;
using System.Linq;
using System.Text;
using System.Threading;
using System.Threading.Tasks;
using AsyncCost.Analyzers.CodeFixes.Internal;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeActions;
using Microsoft.CodeAnalysis.CodeFixes;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Formatting;
using Microsoft.CodeAnalysis.Operations;
using Microsoft.CodeAnalysis.Simplification;

namespace AsyncCost.Analyzers.CodeFixes;

/// <summary>
/// AC0003 for the common two-statement shape (<c>[var x =] await C(...);</c> then one <c>return expr;</c> or
/// <c>expr;</c>): the method stops being async, returns synchronously when C's task IsCompletedSuccessfully, and
/// otherwise hands the task to a <c>static</c> async local function (static, so no closure is allocated on the fast
/// path; instance members it needs go through a <c>self</c> parameter). An async method never throws to its caller:
/// an exception ends its task. So where the call or the completed path's code can throw, the new code catches it and
/// returns it as a faulted task, and a caller that awaits later still sees it at its await.
/// </summary>
[ExportCodeFixProvider(LanguageNames.CSharp, Name = nameof(AC0003SynchronousFastPathCodeFix)), Shared]
public sealed class AC0003SynchronousFastPathCodeFix() : RuleCodeFix(RuleIds.SynchronousFastPath)
{
    private const string Title = "Return synchronously when the awaited task has completed";

    protected override async Task<PlannedFix?> PlanFixAsync(Document document, SyntaxNode root, Diagnostic diagnostic, CancellationToken cancellationToken)
    {
        var model = await document.GetSemanticModelAsync(cancellationToken).ConfigureAwait(false);
        if (root.FindNode(diagnostic.Location.SourceSpan, getInnermostNodeForTie: true) is not AwaitExpressionSyntax awaitExpression
            || model is null
            || awaitExpression.FirstAncestorOrSelf<MethodDeclarationSyntax>() is not { } method
            || Rewrite(method, awaitExpression, model, cancellationToken) is not { } rewritten)
        {
            return null;
        }
        return PlannedFix.Replace(Title, document, root, method, rewritten);
    }

    private static MethodDeclarationSyntax? Rewrite(MethodDeclarationSyntax method, AwaitExpressionSyntax awaitExpression, SemanticModel model, CancellationToken cancellationToken)
    {
        if (method.Body is not { Statements.Count: 2 } body
            || model.GetDeclaredSymbol(method, cancellationToken) is not { } methodSymbol
            || methodSymbol.ReturnType is not INamedTypeSymbol returnType)
        {
            return null;
        }

        // First statement: `await C(...)` or `T x = await C(...)`, possibly with ConfigureAwait.
        VariableDeclarationSyntax? resultDeclaration = null;
        if (body.Statements[0] is LocalDeclarationStatementSyntax { Declaration: { Variables.Count: 1 } declaration } && declaration.Variables[0].Initializer?.Value == awaitExpression)
        {
            resultDeclaration = declaration;
        }
        else if (body.Statements[0] is not ExpressionStatementSyntax { Expression: var expression } || expression != awaitExpression)
        {
            return null;
        }
        var call = awaitExpression.Expression;
        string? configureArguments = null;
        if (call is InvocationExpressionSyntax { Expression: MemberAccessExpressionSyntax { Name.Identifier.ValueText: "ConfigureAwait" } configure } configureCall)
        {
            call = configure.Expression;
            configureArguments = configureCall.ArgumentList.ToString();
        }
        if (model.GetTypeInfo(call, cancellationToken).Type is not { } pendingType)
        {
            return null;
        }

        // Second statement: `return expr;` for a result-returning method, `expr;` for Task/ValueTask.
        var isGeneric = returnType.IsGenericType;
        var rest = body.Statements[1] switch
        {
            ReturnStatementSyntax { Expression: { } returned } when isGeneric => returned,
            ExpressionStatementSyntax { Expression: var statementExpression } when !isGeneric => statementExpression,
            _ => null,
        };
        var self = LocalNames.Unique(method, "self");
        if (rest is null || model.GetOperation(rest, cancellationToken) is not { } restOperation || !TryMakeStatic(rest, restOperation, self, out var staticRest, out var usesSelf, out var parameters))
        {
            return null;
        }

        var position = method.SpanStart;
        var pending = LocalNames.Unique(method, "pending");
        var local = LocalNames.Unique(method, "Awaited");
        var returnTypeText = method.ReturnType.WithoutTrivia().ToString();
        var isValueTask = returnType.Name == "ValueTask";
        var restText = rest.WithoutTrivia().ToString();

        var fastPath = new StringBuilder();
        if (resultDeclaration is not null)
        {
            fastPath.Append(resultDeclaration.Type.WithoutTrivia()).Append(' ').Append(resultDeclaration.Variables[0].Identifier.ValueText).Append(" = ").Append(pending).Append(".Result;\n");
        }
        if (isGeneric)
        {
            var resultType = returnType.TypeArguments[0];
            var sameType = SymbolEqualityComparer.Default.Equals(model.GetTypeInfo(rest, cancellationToken).Type, resultType);
            fastPath.Append("return ").Append(isValueTask
                ? $"new {returnTypeText}({restText})"
                : $"{TaskTypeName(method.ReturnType)}.FromResult{(sameType ? "" : "<" + resultType.ToMinimalDisplayString(model, position) + ">")}({restText})").Append(";\n");
        }
        else
        {
            fastPath.Append(restText).Append(";\nreturn ").Append(isValueTask ? "default" : TaskTypeName(method.ReturnType) + ".CompletedTask").Append(";\n");
        }

        var arguments = new List<string>();
        var parameterList = new List<string>();
        if (usesSelf)
        {
            arguments.Add("this");
            parameterList.Add($"{methodSymbol.ContainingType.ToMinimalDisplayString(model, position)} {self}");
        }
        arguments.Add(pending);
        parameterList.Add($"{pendingType.ToMinimalDisplayString(model, position)} {pending}");
        foreach (var parameter in methodSymbol.Parameters.Where(p => parameters.Contains(p, SymbolEqualityComparer.Default)))
        {
            arguments.Add(parameter.Name);
            parameterList.Add($"{parameter.Type.ToMinimalDisplayString(model, position)} {parameter.Name}");
        }

        var awaitText = $"await {pending}{(configureArguments is null ? "" : ".ConfigureAwait" + configureArguments)}";
        var slowStart = resultDeclaration is null
            ? awaitText + ";"
            : $"{resultDeclaration.Type.WithoutTrivia()} {resultDeclaration.Variables[0].Identifier.ValueText} = {awaitText};";
        var slowRest = (isGeneric ? "return " : "") + staticRest + ";";
        var start = $$"""
                var {{pending}} = {{call.WithoutTrivia()}};
                if ({{pending}}.IsCompletedSuccessfully)
                {
                    {{fastPath.ToString().TrimEnd()}}
                }
                return {{local}}({{string.Join(", ", arguments)}});
            """;
        if (!(CannotThrow(restOperation) && model.GetOperation(call, cancellationToken) is { } callOperation && CannotThrow(callOperation)))
        {
            var exception = LocalNames.Unique(method, "exception");
            var faulted = (isGeneric, isValueTask) switch
            {
                (true, true) => $"new {returnTypeText}(System.Threading.Tasks.Task.FromException<{returnType.TypeArguments[0].ToMinimalDisplayString(model, position)}>({exception}))",
                (true, false) => $"{TaskTypeName(method.ReturnType)}.FromException<{returnType.TypeArguments[0].ToMinimalDisplayString(model, position)}>({exception})",
                (false, true) => $"new {returnTypeText}(System.Threading.Tasks.Task.FromException({exception}))",
                (false, false) => $"{returnTypeText}.FromException({exception})",
            };
            start = $$"""
                try
                {
                    {{start}}
                }
                catch (System.Exception {{exception}})
                {
                    return {{faulted}};
                }
                """;
        }
        var newBody = (BlockSyntax)SyntaxFactory.ParseStatement($$"""
            {
                {{start}}

                static async {{returnTypeText}} {{local}}({{string.Join(", ", parameterList)}})
                {
                    {{slowStart}}
                    {{slowRest}}
                }
            }
            """);
        newBody = newBody.ReplaceNodes(
            newBody.DescendantNodes().Where(n => n is CatchDeclarationSyntax || n is MemberAccessExpressionSyntax { Expression: MemberAccessExpressionSyntax { Name.Identifier.ValueText: "Tasks" } }),
            (_, node) => node is CatchDeclarationSyntax catchDeclaration
                ? catchDeclaration.WithType(catchDeclaration.Type.WithAdditionalAnnotations(Simplifier.Annotation))
                : node.WithAdditionalAnnotations(Simplifier.Annotation));
        return WithoutAsync(method)
            .WithBody(newBody.WithTriviaFrom(body).WithAdditionalAnnotations(Formatter.Annotation));
    }

    // Code that cannot throw, so the fast path needs no catch: reads of literals, locals, parameters, this and its
    // or static fields, assignments of those, unchecked integer + - on them, and a call of an async method of this
    // compilation on such arguments (an async method hands its exceptions to its task).
    private static bool CannotThrow(IOperation operation) => operation switch
    {
        ILiteralOperation or ILocalReferenceOperation or IParameterReferenceOperation or IInstanceReferenceOperation => true,
        IFieldReferenceOperation field => field.Instance is null or IInstanceReferenceOperation,
        IConversionOperation { IsImplicit: true, Conversion.IsUserDefined: false } conversion => CannotThrow(conversion.Operand),
        ISimpleAssignmentOperation assignment => CannotThrow(assignment.Target) && CannotThrow(assignment.Value),
        ICompoundAssignmentOperation { IsChecked: false, OperatorMethod: null, OperatorKind: BinaryOperatorKind.Add or BinaryOperatorKind.Subtract } compound =>
            IsInteger(compound.Type) && CannotThrow(compound.Target) && CannotThrow(compound.Value),
        IBinaryOperation { IsChecked: false, OperatorMethod: null, OperatorKind: BinaryOperatorKind.Add or BinaryOperatorKind.Subtract } binary =>
            IsInteger(binary.Type) && CannotThrow(binary.LeftOperand) && CannotThrow(binary.RightOperand),
        IInvocationOperation { TargetMethod: { IsAsync: true } } invocation =>
            (invocation.Instance is null || CannotThrow(invocation.Instance)) && invocation.Arguments.All(a => CannotThrow(a.Value)),
        _ => false,
    };

    private static bool IsInteger(ITypeSymbol? type) => type?.SpecialType is SpecialType.System_Int32 or SpecialType.System_Int64 or SpecialType.System_UInt32 or SpecialType.System_UInt64;

    // The rest of the method as text for the static local function: implicit `this` members become `self.Member`
    // and `this` becomes `self`. `base` cannot move into a static function: then there is no fix.
    private static bool TryMakeStatic(ExpressionSyntax rest, IOperation restOperation, string self, out string text, out bool usesSelf, out HashSet<IParameterSymbol> parameters)
    {
        text = "";
        usesSelf = false;
        parameters = new HashSet<IParameterSymbol>(SymbolEqualityComparer.Default);
        var replacements = new Dictionary<SyntaxNode, SyntaxNode>();
        foreach (var operation in restOperation.DescendantsAndSelf())
        {
            switch (operation)
            {
                case IParameterReferenceOperation parameterReference:
                    parameters.Add(parameterReference.Parameter);
                    break;
                case IInstanceReferenceOperation { ReferenceKind: InstanceReferenceKind.ContainingTypeInstance } instance:
                    if (instance.Syntax is BaseExpressionSyntax)
                    {
                        return false;
                    }
                    usesSelf = true;
                    var target = instance.IsImplicit
                        ? (instance.Parent is IInvocationOperation invocation ? ((InvocationExpressionSyntax)invocation.Syntax).Expression : instance.Parent?.Syntax)
                        : instance.Syntax;
                    if (target is ThisExpressionSyntax)
                    {
                        replacements[target] = SyntaxFactory.IdentifierName(self);
                    }
                    else if (target is SimpleNameSyntax name)
                    {
                        replacements[target] = SyntaxFactory.MemberAccessExpression(SyntaxKind.SimpleMemberAccessExpression, SyntaxFactory.IdentifierName(self), name.WithoutTrivia());
                    }
                    else
                    {
                        return false;
                    }
                    break;
            }
        }
        text = rest.ReplaceNodes(replacements.Keys, (original, _) => replacements[original].WithTriviaFrom(original)).WithoutTrivia().ToString();
        return true;
    }

    // `Task<T>` → `Task`, `System.Threading.Tasks.Task<T>` → `System.Threading.Tasks.Task`: the name already in scope.
    private static string TaskTypeName(TypeSyntax returnType) => returnType switch
    {
        GenericNameSyntax generic => generic.Identifier.ValueText,
        QualifiedNameSyntax { Right: GenericNameSyntax right } qualified => qualified.Left.WithoutTrivia() + "." + right.Identifier.ValueText,
        _ => returnType.WithoutTrivia().ToString(),
    };

    private static MethodDeclarationSyntax WithoutAsync(MethodDeclarationSyntax method)
    {
        var index = method.Modifiers.IndexOf(SyntaxKind.AsyncKeyword);
        var asyncToken = method.Modifiers[index];
        var modifiers = method.Modifiers.RemoveAt(index);
        var updated = method.WithModifiers(modifiers);
        if (index == 0 && method.AttributeLists.Count == 0)
        {
            // async was the declaration's first token: its leading trivia (indentation, comments) moves to the next one.
            updated = modifiers.Count > 0
                ? updated.WithModifiers(modifiers.Replace(modifiers[0], modifiers[0].WithLeadingTrivia(asyncToken.LeadingTrivia)))
                : updated.WithReturnType(updated.ReturnType.WithLeadingTrivia(asyncToken.LeadingTrivia));
        }
        return updated;
    }
}
