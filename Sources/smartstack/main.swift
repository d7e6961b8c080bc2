// The `smartstack` tool: every command, with the built-in strategies.
import SmartStackCommands
import SmartStackKit

await SmartStack.main(registry: StrategyRegistry.builtIn)
