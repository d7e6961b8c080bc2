// `custom-smartstack`: the smartstack tool, every command, with the built-in strategies
// and `weekday-mfu`.
import SmartStackCommands
import SmartStackKit
import WeekdayStrategies

var registry = StrategyRegistry.builtIn
registry.register(WeekdayMFUStrategy.self)
await SmartStack.main(registry: registry)
