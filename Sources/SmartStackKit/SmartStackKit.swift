// SmartStackKit: the whole library behind the `smartstack` command, in one import.
//
// The library is built as layered targets, each depending only on the ones below it
// (README, "Architecture"):
//
//   SmartStackCounterfactual  exposure logs, off-policy estimators, rule replay, validation
//   SmartStackExperiments  batch, sources, metric observers, statistics, reports, registry
//   SmartStackWorld        scenarios, simulated people, apps' timelines, reloads, simulation
//   SmartStackStrategies   the built-in strategies, one file each
//   SmartStackEngine       strategy protocol, stack session, stack rules, replay driver
//   SmartStackData         donations, stacks and intents, relevance, visit logs, importers
//   SmartStackBase         time, random numbers, CSV/JSON readers and writers, diagnostics
//
// `import SmartStackKit` re-exports all of them, so a user never names a layer.
@_exported import SmartStackBase
@_exported import SmartStackCounterfactual
@_exported import SmartStackData
@_exported import SmartStackEngine
@_exported import SmartStackExperiments
@_exported import SmartStackStrategies
@_exported import SmartStackWorld
