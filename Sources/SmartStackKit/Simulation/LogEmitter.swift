/// Collects a simulation's donations and visits and writes them in the public formats,
/// so a simulated world can be replayed with `smartstack replay`.
///
/// Donations are placed at the instant of the visit that caused them; replaying the
/// emitted logs with `--visits VISITS.csv --stack STACK.json --horizon 0` therefore gives
/// every visit the same target as in the simulation (whenever the person acted on the
/// want). Memory: O(donations + visits) of the whole run.
public struct LogEmitter: Sendable {
  public private(set) var donations: [Donation] = []
  public private(set) var visitUsers: [String] = []
  public private(set) var visitTimes: [Int64] = []

  public init() {}

  public mutating func visit(person: String, at time: Int64) {
    visitUsers.append(person)
    visitTimes.append(time)
  }

  public mutating func donation(_ donation: Donation) {
    donations.append(donation)
  }

  /// The donation log (rows in time order, ties in emission order).
  public var donationLog: DonationLog { DonationLog(donations) }

  /// The visit log as CSV `timestamp,user` (UTC instants), in time order, ties in
  /// emission order.
  public var visitLogCSV: String {
    var csv = CSVWriter(header: ["timestamp", "user"])
    let order = visitTimes.indices.sorted { (visitTimes[$0], $0) < (visitTimes[$1], $1) }
    for i in order {
      csv.appendRow([ISO8601.format(Instant(milliseconds: visitTimes[i])), visitUsers[i]])
    }
    return csv.text
  }
}
