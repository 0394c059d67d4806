using BenchmarkDotNet.Running;

// Entry point: BenchmarkDotNet's switcher, so `--filter`, `--job Dry` and the exporters work as usual.
BenchmarkSwitcher.FromAssembly(typeof(Program).Assembly).Run(args);
