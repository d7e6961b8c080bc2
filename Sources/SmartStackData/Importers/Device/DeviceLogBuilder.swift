import SmartStackBase
/// Collects the donations and visits of a device database, each with its UTC offset
/// (`UTCOffset.none` for a row without one), and sorts them stably by time so the offsets
/// stay aligned with the log's rows. The logs carry the offsets too
/// (`DonationLog.utcOffsets`, `VisitLog.utcOffsets`), as reading the written files gives.
struct DeviceLogBuilder {
  private var donations: [(donation: Donation, offset: Int32)] = []
  private var visits: [(ms: Int64, offset: Int32)] = []
  /// The device's one user: the database records no person.
  static let user = Donation.defaultUser

  mutating func donate(_ donation: Donation, offset: Int32) {
    donations.append((donation, offset))
  }

  mutating func visit(at ms: Int64, offset: Int32) { visits.append((ms, offset)) }

  /// The result, rows sorted stably by time; sets `donations`, `visits`, `users`, `apps`.
  consuming func finish(file: String, counts: ImportCounts) -> ImportResult {
    var counts = counts
    let sortedDonations = donations.indices.sorted {
      let (a, b) = (donations[$0].donation.timestamp, donations[$1].donation.timestamp)
      return a != b ? a < b : $0 < $1
    }.map { donations[$0] }
    let sortedVisits = visits.indices.sorted {
      visits[$0].ms != visits[$1].ms ? visits[$0].ms < visits[$1].ms : $0 < $1
    }.map { visits[$0] }
    let log = DonationLog(
      sortedDonations.map { row in
        var donation = row.donation
        donation.utcOffset = row.offset == UTCOffset.none ? nil : row.offset
        return donation
      })
    let visitOffsets = sortedVisits.map(\.offset)
    let visitLog = VisitLog(
      file: file, users: sortedVisits.map { _ in Self.user }, times: sortedVisits.map(\.ms),
      utcOffsets: visitOffsets.allSatisfy { $0 == UTCOffset.none } ? [] : visitOffsets)
    counts.donations = log.count
    counts.visits = visitLog.count
    counts.users = log.isEmpty && visitLog.count == 0 ? 0 : 1
    counts.apps = log.kindNames.count
    var result = ImportResult(
      donations: log, visits: visitLog, counts: counts, skippedRows: DiagnosticList([]))
    result.donationOffsets = sortedDonations.map(\.offset)
    result.visitOffsets = visitOffsets
    return result
  }
}
