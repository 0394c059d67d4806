using AsyncCost.Cli.Commands;

return await CliApp.RunAsync(args).ConfigureAwait(false);
