/// A snapshot of the ranking: every school's touch count, as the ranking client reports it.
///
/// Ranks are competition ranks ("1224"): schools with equal counts share a rank, and the next
/// school's rank counts every school above it. A school with no touches yet ranks after every
/// school that has some.
///
/// ```swift
/// let ranking = Ranking(touches: ["A": 30, "B": 20, "C": 20, "D": 5])
/// ranking.standings.map(\.rank)   // [1, 2, 2, 4]
/// ranking.rank(of: "E")           // 5: no touches yet
/// ```
public struct Ranking: Codable, Equatable, Sendable {
  /// Touches per school code; schools never touched are absent.
  public var touches: [School.ID: Int]

  public init(touches: [School.ID: Int] = [:]) { self.touches = touches }

  /// One row of the ranking.
  public struct Standing: Equatable, Sendable {
    public var schoolID: School.ID
    public var touches: Int
    public var rank: Int

    public init(schoolID: School.ID, touches: Int, rank: Int) {
      self.schoolID = schoolID
      self.touches = touches
      self.rank = rank
    }
  }

  /// `school`'s touch count.
  public func touches(for school: School.ID) -> Int { touches[school, default: 0] }

  /// `school`'s competition rank: one more than the number of schools with more touches.
  public func rank(of school: School.ID) -> Int {
    let mine = touches(for: school)
    return 1 + touches.values.count { $0 > mine }
  }

  /// Every school with touches, most first (equal counts by code), with its rank.
  public var standings: [Standing] { Self.standings(touches) }

  /// The ranking with `count` more touches for `school`.
  public func adding(_ count: Int, to school: School.ID) -> Ranking {
    var ranking = self
    ranking.touches[school, default: 0] += count
    return ranking
  }

  /// Competition ranking of `touches`: sorted by count, most first, ties by code; a school's
  /// rank is its position in that order, except that it shares the rank of the school before
  /// it when their counts are equal.
  public static func standings(_ touches: [School.ID: Int]) -> [Standing] {
    let sorted = touches.filter { $0.value > 0 }.sorted {
      $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key
    }
    var standings: [Standing] = []
    standings.reserveCapacity(sorted.count)
    for (position, entry) in sorted.enumerated() {
      let rank =
        if let previous = standings.last, previous.touches == entry.value {
          previous.rank
        } else {
          position + 1
        }
      standings.append(Standing(schoolID: entry.key, touches: entry.value, rank: rank))
    }
    return standings
  }
}
