namespace AsyncCost.Testing;

/// <summary>A measured async method is over its budget, or its bound is too wide to tell (the message says which, with the
/// figure, its bound and the budget). Any test framework reports it as a failure.</summary>
public sealed class AsyncCostBudgetException : Exception
{
    /// <summary>Creates the exception.</summary>
    public AsyncCostBudgetException()
    {
    }

    /// <summary>Creates the exception with its message.</summary>
    public AsyncCostBudgetException(string message)
        : base(message)
    {
    }

    /// <summary>Creates the exception with its message and cause.</summary>
    public AsyncCostBudgetException(string message, Exception innerException)
        : base(message, innerException)
    {
    }
}
