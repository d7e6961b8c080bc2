import SmartStackBase
import SmartStackData
import SmartStackEngine
import SmartStackWorld

extension RunMetrics {
  /// The metrics of a block of people as `init(blocks:)` joins them: `m`'s per-person
  /// values and times to surface, and as `daily` its person-days in the order they were
  /// counted (`StandardMetrics.dayLog`, which a run of a block keeps).
  public init(block m: StandardMetrics, days: LocalDays) {
    self.init(
      perPerson: m.perPerson, perPersonGini: m.exposureGini, timesToSurface: m.timesToSurface,
      daily: (m.dayLog ?? []).map { ($0.day, $0.counts, days.offsets(of: $0.day)) })
  }

  /// The metrics of a whole run rebuilt from the metrics of its blocks of people
  /// (`ExperimentSource.run(_:replicate:seed:people:)`), given in person order and together
  /// covering every person once: per-person counts and Gini values concatenated, times
  /// to surface pooled (sorted by `init(perPerson:perPersonGini:timesToSurface:daily:)`),
  /// and each day's counts the sum of the blocks' person-days added in the order given,
  /// starting from zero: the additions `StandardMetrics` makes in one run, in its order,
  /// so every value, floating-point sums included, is bit-identical to one run's.
  /// A scenario's simulation counts (whole numbers) are summed.
  public init(blocks: [RunMetrics]) {
    var days: [Int64: (counts: MetricCounts, offsets: DayOffsets)] = [:]
    var simulation: SimulationCounts?
    for block in blocks {
      for entry in block.daily {
        days[entry.day, default: (MetricCounts(), entry.offsets)].counts += entry.counts
      }
      if let counts = block.simulation {
        var sum = simulation ?? SimulationCounts()
        sum += counts
        simulation = sum
      }
    }
    self.init(
      perPerson: blocks.flatMap(\.perPerson), perPersonGini: blocks.flatMap(\.perPersonGini),
      timesToSurface: blocks.flatMap(\.timesToSurface),
      daily: days.keys.sorted().map { ($0, days[$0]!.counts, days[$0]!.offsets) })
    self.simulation = simulation
  }
}
