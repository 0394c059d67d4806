// AC0001 false-positive shapes: loops whose iterations are ordered. The package must stay silent on every one,
// under its defaults and with every rule raised to warning (verify-package.sh builds this with warnings as errors).
using System;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;

namespace FalsePositiveShapes;

public sealed class FieldWriter
{
    private int _position;

    public int Position => _position;

    public Task WriteCharsAsync(string text)
    {
        _position += text.Length;
        return Task.CompletedTask;
    }
}

public interface IColumnBuffer
{
    Task SkipAsync(int count);
    Task EnsureAsync(int count);
    int ReadInt32();
}

public sealed class HandlerState
{
    public bool Handled { get; private set; }

    public void SetHandled() => Handled = true;
}

public interface IExceptionHandler
{
    Task HandleAsync(Exception error, HandlerState state, CancellationToken cancellationToken);
}

public static class LoopShapes
{
    // Ordered writes on one shared writer of this library.
    public static async Task WriteAllAsync(FieldWriter writer, IReadOnlyDictionary<string, string> values)
    {
        foreach (var pair in values)
        {
            await writer.WriteCharsAsync(pair.Key).ConfigureAwait(false);
        }
    }

    // A length read in one iteration decides what the next one skips.
    public static async Task ReadColumnsAsync(IColumnBuffer buffer, int columns)
    {
        var column = 0;
        var length = 0;
        do
        {
            if (length > 0)
            {
                await buffer.SkipAsync(length).ConfigureAwait(false);
            }
            await buffer.EnsureAsync(4).ConfigureAwait(false);
            length = buffer.ReadInt32();
        }
        while (++column < columns);
    }

    // Tasks that are already running.
    public static async Task<int> SumAsync(IEnumerable<Task<int>> running, Task<int>[] pending)
    {
        var sum = 0;
        foreach (var task in running)
        {
            sum += await task.ConfigureAwait(false);
        }
        for (var i = 0; i < pending.Length; i++)
        {
            var value = await pending[i].ConfigureAwait(false);
            sum += value;
        }
        return sum;
    }

    // Callbacks run in turn on one context.
    public static async Task RunCallbacksAsync(IEnumerable<Func<HandlerState, Task>> callbacks, HandlerState context)
    {
        foreach (var callback in callbacks)
        {
            await callback(context).ConfigureAwait(false);
        }
    }

    // Children disposed in order.
    public static async Task DisposeAllAsync(IEnumerable<IAsyncDisposable> children)
    {
        foreach (var child in children)
        {
            await child.DisposeAsync().ConfigureAwait(false);
        }
    }

    // Handlers until one of them has handled the error.
    public static async Task HandleAsync(IEnumerable<IExceptionHandler> handlers, Exception error, HandlerState state, CancellationToken cancellationToken)
    {
        foreach (var handler in handlers)
        {
            await handler.HandleAsync(error, state, cancellationToken).ConfigureAwait(false);
            if (state.Handled)
            {
                break;
            }
        }
    }
}

// A row written value by value through the object's own method, which moves the object on (_column++).
public sealed class RowImporter
{
    private int _column;

    public int Column => _column;

    public async Task WriteRowAsync(object?[] values, CancellationToken cancellationToken)
    {
        _column = 0;
        foreach (var value in values)
        {
            await WriteAsync(value, cancellationToken).ConfigureAwait(false);
        }
    }

    private Task WriteAsync(object? value, CancellationToken cancellationToken)
    {
        cancellationToken.ThrowIfCancellationRequested();
        _column++;
        return Task.CompletedTask;
    }
}
