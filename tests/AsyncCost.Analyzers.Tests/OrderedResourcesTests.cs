using AsyncCost.Analyzers.Internal;
using AsyncCost.Analyzers.Tests.Verification;
using Microsoft.CodeAnalysis;

namespace AsyncCost.Analyzers.Tests;

/// <summary>
/// What OrderedResources says about a type shared by a loop's iterations: ordered (a position each call advances),
/// changeable (state a call can write), immutable (a call can only read it); and which client ConcurrencySafeTypes
/// knows to make a response per request. Each answer is one AC0001 builds its evidence on.
/// </summary>
public class OrderedResourcesTests
{
    private const string Source = """
        using System.Collections.Generic;
        using System.IO;
        using System.Net.Http;
        public sealed class RowWriter { }
        public sealed class Cursor { private int _position; public int Position => _position; }
        public sealed class Frozen { private readonly int _size; public Frozen(int size) => _size = size; public int Size { get; } }
        public sealed class Settable { public string Url { get; set; } = ""; }
        public sealed class Initialized { public string Url { get; init; } = ""; }
        public sealed class RetryingClient : HttpClient { }
        public class Fields
        {
            public Stream Stream = null!;
            public FileStream FileStream = null!;
            public RowWriter Writer = null!;
            public Cursor Cursor = null!;
            public Frozen Frozen = null!;
            public Settable Settable = null!;
            public Initialized Initialized = null!;
            public List<int> List = null!;
            public int[] Array = null!;
            public string Text = "";
            public System.Uri Uri = null!;
            public System.Text.Encoding Utf8 = System.Text.Encoding.UTF8;
            public System.Text.Json.JsonSerializerOptions Json = null!;
            public HttpClient Http = null!;
            public RetryingClient Retrying = null!;
            public System.IO.Compression.ZipArchive Zip = null!;
        }
        """;

    private static ITypeSymbol TypeOf(string field)
    {
        var compilation = TestCompilation.Create([Source], OutputKind.DynamicallyLinkedLibrary);
        TestCompilation.AssertCompiles(compilation);
        return ((IFieldSymbol)compilation.GetTypeByMetadataName("Fields")!.GetMembers(field).Single()).Type;
    }

    [Theory]
    [InlineData("Stream", true, true)]
    [InlineData("FileStream", true, true)]
    [InlineData("Zip", true, true)]
    [InlineData("Writer", true, false)]
    [InlineData("Cursor", true, false)]
    [InlineData("Http", false, false)]
    [InlineData("Text", false, false)]
    public void An_ordered_resource_is_a_known_framework_type_or_named_like_one(string field, bool ordered, bool known)
    {
        var type = TypeOf(field);
        Assert.Equal(ordered, OrderedResources.Is(type));
        Assert.Equal(known, OrderedResources.IsKnown(type));
    }

    [Theory]
    [InlineData("Cursor", true)]
    [InlineData("Settable", true)]
    [InlineData("List", true)]
    [InlineData("Array", true)]
    [InlineData("Frozen", false)]
    [InlineData("Initialized", false)]
    [InlineData("Text", false)]
    public void A_changeable_object_is_a_collection_or_a_class_here_with_a_writable_field(string field, bool changeable) =>
        Assert.Equal(changeable, OrderedResources.CanBeChanged(TypeOf(field)));

    [Theory]
    [InlineData("Text", true)]
    [InlineData("Uri", true)]
    [InlineData("Utf8", true)]
    [InlineData("Json", true)]
    [InlineData("Frozen", false)]
    [InlineData("Http", false)]
    [InlineData("Stream", false)]
    public void An_immutable_value_is_one_of_the_framework_types_a_call_can_only_read(string field, bool immutable) =>
        Assert.Equal(immutable, OrderedResources.IsImmutable(TypeOf(field)));

    [Theory]
    [InlineData("Http", true)]
    [InlineData("Retrying", true)]
    [InlineData("Stream", false)]
    [InlineData("Settable", false)]
    public void The_framework_HTTP_client_and_classes_deriving_from_it_make_a_response_per_request(string field, bool client) =>
        Assert.Equal(client, ConcurrencySafeTypes.IsFrameworkHttpClient(TypeOf(field)));
}
