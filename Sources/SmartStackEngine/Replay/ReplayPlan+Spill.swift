import SmartStackBase
import SmartStackData

extension ReplayPlan {
  /// The block of people `people` (user ids of `spill`, which are the whole plan's person
  /// indices) of the plan of the spilled donation log, with its visits from `visits` when
  /// `options.visits` names a visit log (else made from the donations, as `options.visits`
  /// says): equal to `ReplayPlan(log:options:).block(people)` of the whole log read in
  /// memory, without ever holding more than the block's rows (docs/performance.md,
  /// "Streaming replay").
  ///
  /// The plan's notes are the whole plan's (every block has the same); `donations`,
  /// `firstInstant` and `lastInstant` describe the whole log.
  ///
  /// - Throws: `ReplayError` as `init(log:options:)` throws for the first person of the
  ///   block it fails for; `InputFileError` when the spill cannot be read back.
  package init(block people: Range<Int>, of spill: DonationSpill, visits: VisitSpill?, options: ReplayOptions) throws {
    let log = try spill.log(users: people)
    try self.init(donationsOf: log, options: options)
    precondition(self.people.count == people.count, "every user of a donation log has a donation")
    donations = spill.count
    firstInstant = spill.firstTimestamp
    lastInstant = spill.lastTimestamp
    firstPersonIndex = people.lowerBound
    isBlock = true
    if case .log = options.visits.mode, let visits {
      let (times, offsets) = try visits.visits(people: people)
      addVisits(
        file: visits.file, times: times, offsets: offsets,
        note: Self.unknownVisitsNote(rows: visits.unknownRows, examples: visits.unknownExamples))
    } else {
      addVisits(options.visits)
    }
  }
}
