using System.Linq;
using Microsoft.CodeAnalysis;

namespace AsyncCost.Analyzers.Internal;

/// <summary>
/// UI and component types (WPF, WinForms, MAUI, Avalonia, Blazor) whose awaits must resume on the UI context, resolved
/// once per compilation from the base types and interfaces its references contain. View models count too when the
/// compilation references a XAML framework: they implement INotifyPropertyChanged and update bound state after awaits.
/// </summary>
internal sealed class UiTypes
{
    private static readonly string[] UiBaseTypeNames =
    [
        "System.Windows.DependencyObject",            // WPF: windows, controls
        "System.Windows.Threading.DispatcherObject",  // WPF
        "System.Windows.Forms.Control",                // WinForms
        "Microsoft.Maui.Controls.BindableObject",      // MAUI
        "Xamarin.Forms.BindableObject",                // Xamarin.Forms
        "Avalonia.AvaloniaObject",                     // Avalonia
        "Microsoft.UI.Xaml.DependencyObject",          // WinUI 3
        "Microsoft.AspNetCore.Components.ComponentBase", // Blazor
    ];

    private static readonly string[] UiInterfaceNames =
    [
        "Microsoft.AspNetCore.Components.IComponent",  // Blazor components without ComponentBase
    ];

    private readonly INamedTypeSymbol[] _baseTypes;
    private readonly INamedTypeSymbol[] _interfaces;
    private readonly INamedTypeSymbol? _notifyPropertyChanged;

    private UiTypes(Compilation compilation)
    {
        _baseTypes = Resolve(compilation, UiBaseTypeNames);
        _interfaces = Resolve(compilation, UiInterfaceNames);
        var hasXamlFramework = _baseTypes.Any(t => t.Name is "DependencyObject" or "BindableObject" or "AvaloniaObject");
        _notifyPropertyChanged = hasXamlFramework
            ? compilation.GetTypeByMetadataName("System.ComponentModel.INotifyPropertyChanged")
            : null;
    }

    /// <summary>False when the compilation references no UI framework: then no type is a UI type.</summary>
    public bool Any => _baseTypes.Length > 0 || _interfaces.Length > 0;

    public static UiTypes Create(Compilation compilation) => new(compilation);

    /// <summary>The type, or a type containing it, is a UI element, a component or a view model.</summary>
    public bool IsUiType(INamedTypeSymbol? type)
    {
        if (!Any)
        {
            return false;
        }
        for (var current = type; current is not null; current = current.ContainingType)
        {
            if (IsUiTypeItself(current))
            {
                return true;
            }
        }
        return false;
    }

    private bool IsUiTypeItself(INamedTypeSymbol type)
    {
        for (var baseType = type.BaseType; baseType is not null; baseType = baseType.BaseType)
        {
            if (Contains(_baseTypes, baseType.OriginalDefinition))
            {
                return true;
            }
        }
        foreach (var implemented in type.AllInterfaces)
        {
            if (Contains(_interfaces, implemented.OriginalDefinition)
                || SymbolEqualityComparer.Default.Equals(implemented.OriginalDefinition, _notifyPropertyChanged))
            {
                return true;
            }
        }
        return false;
    }

    private static bool Contains(INamedTypeSymbol[] types, INamedTypeSymbol candidate)
    {
        foreach (var type in types)
        {
            if (SymbolEqualityComparer.Default.Equals(type, candidate))
            {
                return true;
            }
        }
        return false;
    }

    private static INamedTypeSymbol[] Resolve(Compilation compilation, string[] names) =>
        names.Select(compilation.GetTypeByMetadataName).Where(t => t is not null).Select(t => t!).ToArray();
}
