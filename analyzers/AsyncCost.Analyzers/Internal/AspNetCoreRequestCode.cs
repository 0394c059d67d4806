using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;

namespace AsyncCost.Analyzers.Internal;

/// <summary>
/// ASP.NET Core request code, which never runs under a synchronization context (ASP.NET Core has none): controllers,
/// Razor pages, page models and views, view components, SignalR hubs, middleware and filters, and any function that
/// takes the request's <c>HttpContext</c> or is an endpoint handler handed to a <c>Map…</c> call of an
/// <c>IEndpointRouteBuilder</c>. Resolved once per compilation; nothing is request code where ASP.NET Core is not referenced.
/// </summary>
internal sealed class AspNetCoreRequestCode
{
    private static readonly string[] RequestBaseTypeNames =
    [
        "Microsoft.AspNetCore.Mvc.ControllerBase",             // controllers, API controllers
        "Microsoft.AspNetCore.Mvc.RazorPages.PageModel",       // Razor page models
        "Microsoft.AspNetCore.Mvc.RazorPages.PageBase",        // Razor pages
        "Microsoft.AspNetCore.Mvc.Razor.RazorPageBase",        // views
        "Microsoft.AspNetCore.Mvc.ViewComponent",
        "Microsoft.AspNetCore.SignalR.Hub",
        "Microsoft.AspNetCore.SignalR.Hub`1",
    ];

    private static readonly string[] RequestInterfaceNames =
    [
        "Microsoft.AspNetCore.Http.IMiddleware",
        "Microsoft.AspNetCore.Http.IEndpointFilter",
        "Microsoft.AspNetCore.Mvc.Filters.IAsyncActionFilter",
        "Microsoft.AspNetCore.Mvc.Filters.IAsyncResultFilter",
        "Microsoft.AspNetCore.Mvc.Filters.IAsyncResourceFilter",
        "Microsoft.AspNetCore.Mvc.Filters.IAsyncAuthorizationFilter",
        "Microsoft.AspNetCore.Mvc.Filters.IAsyncExceptionFilter",
        "Microsoft.AspNetCore.Mvc.Filters.IAsyncPageFilter",
    ];

    private readonly INamedTypeSymbol[] _baseTypes;
    private readonly INamedTypeSymbol[] _interfaces;
    private readonly INamedTypeSymbol? _httpContext;
    private readonly INamedTypeSymbol? _endpointRouteBuilder;

    private AspNetCoreRequestCode(Compilation compilation)
    {
        _baseTypes = Resolve(compilation, RequestBaseTypeNames);
        _interfaces = Resolve(compilation, RequestInterfaceNames);
        _httpContext = compilation.GetTypeByMetadataName("Microsoft.AspNetCore.Http.HttpContext");
        _endpointRouteBuilder = compilation.GetTypeByMetadataName("Microsoft.AspNetCore.Routing.IEndpointRouteBuilder");
    }

    public static AspNetCoreRequestCode Create(Compilation compilation) => new(compilation);

    private bool Any => _baseTypes.Length > 0 || _interfaces.Length > 0 || _httpContext is not null;

    /// <summary>The operation runs in request code: in a request type, or in a function that handles a request.</summary>
    public bool Contains(IOperation operation, ISymbol containingSymbol)
    {
        if (!Any)
        {
            return false;
        }
        for (var current = operation.Parent; current is not null; current = current.Parent)
        {
            if (current is IAnonymousFunctionOperation lambda && (TakesHttpContext(lambda.Symbol) || IsEndpointHandler(lambda)))
            {
                return true;
            }
            if (current is ILocalFunctionOperation local && TakesHttpContext(local.Symbol))
            {
                return true;
            }
        }
        return containingSymbol is IMethodSymbol method && TakesHttpContext(method) || IsRequestType(containingSymbol.ContainingType);
    }

    private bool TakesHttpContext(IMethodSymbol method) =>
        _httpContext is not null && method.Parameters.Any(p => SymbolEqualityComparer.Default.Equals(p.Type, _httpContext));

    // app.MapGet("/x", async (…) => …), group.MapPost(…): the lambda is an argument of a call on an endpoint route builder.
    private bool IsEndpointHandler(IAnonymousFunctionOperation lambda)
    {
        // Map… takes a Delegate: the lambda reaches it through its delegate creation and a conversion to Delegate.
        var argument = lambda.Parent;
        while (argument is IDelegateCreationOperation or IConversionOperation)
        {
            argument = argument.Parent;
        }
        if (_endpointRouteBuilder is null || argument is not IArgumentOperation { Parent: IInvocationOperation call })
        {
            return false;
        }
        var receiver = OperationTree.ReceiverOf(call)?.Type;
        return receiver is not null
            && (SymbolEqualityComparer.Default.Equals(receiver, _endpointRouteBuilder)
                || receiver.AllInterfaces.Any(i => SymbolEqualityComparer.Default.Equals(i, _endpointRouteBuilder)));
    }

    private bool IsRequestType(INamedTypeSymbol? type)
    {
        for (var current = type; current is not null; current = current.ContainingType)
        {
            for (var baseType = current.BaseType; baseType is not null; baseType = baseType.BaseType)
            {
                if (_baseTypes.Contains(baseType.OriginalDefinition, SymbolEqualityComparer.Default))
                {
                    return true;
                }
            }
            if (current.AllInterfaces.Any(i => _interfaces.Contains(i.OriginalDefinition, SymbolEqualityComparer.Default)))
            {
                return true;
            }
        }
        return false;
    }

    private static INamedTypeSymbol[] Resolve(Compilation compilation, string[] names) =>
        names.Select(compilation.GetTypeByMetadataName).Where(t => t is not null).Select(t => t!).ToArray();
}
