import Foundation

/// Parses HTTP-dates (RFC 9110 §5.6.7) without a `DateFormatter`: the preferred IMF-fixdate
/// (`Sun, 06 Nov 1994 08:49:37 GMT`) and the two obsolete forms a recipient must accept,
/// RFC 850 (`Sunday, 06-Nov-94 08:49:37 GMT`) and asctime (`Sun Nov  6 08:49:37 1994`).
enum HTTPDate {
    /// The date `text` denotes, or `nil` when it is not an HTTP-date.
    static func parse(_ text: String) -> Date? {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        switch words.count {
        case 6 where words[5] == "GMT" && words[0].hasSuffix(","):
            // IMF-fixdate: day-name, DD Mon YYYY HH:MM:SS GMT
            guard let day = Int(words[1]), let month = month(words[2]), let year = Int(words[3]), words[3].count == 4
            else { return nil }
            return date(year: year, month: month, day: day, time: words[4])
        case 4 where words[3] == "GMT" && words[0].hasSuffix(","):
            // RFC 850: day-name, DD-Mon-YY HH:MM:SS GMT
            let parts = words[1].split(separator: "-").map(String.init)
            guard parts.count == 3, let day = Int(parts[0]), let month = month(parts[1]), let short = Int(parts[2])
            else { return nil }
            // Two-digit years: RFC 9110 §5.6.7 reads a year more than 50 years ahead as the past century.
            let year = parts[2].count == 2 ? (short < 70 ? 2000 + short : 1900 + short) : short
            return date(year: year, month: month, day: day, time: words[2])
        case 5:
            // asctime: day-name Mon D HH:MM:SS YYYY
            guard let month = month(words[1]), let day = Int(words[2]), let year = Int(words[4]) else { return nil }
            return date(year: year, month: month, day: day, time: words[3])
        default:
            return nil
        }
    }

    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    private static func month(_ name: String) -> Int? {
        months.firstIndex(of: name.lowercased()).map { $0 + 1 }
    }

    private static func date(year: Int, month: Int, day: Int, time: String) -> Date? {
        let clock = time.split(separator: ":").compactMap { Int($0) }
        guard clock.count == 3, (1...31).contains(day), (0...23).contains(clock[0]), (0...59).contains(clock[1]),
            (0...60).contains(clock[2]), (1...9999).contains(year)
        else { return nil }
        let days = daysSinceEpoch(year: year, month: month, day: day)
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + clock[0] * 3600 + clock[1] * 60 + clock[2]))
    }

    /// Days from 1970-01-01 to the given proleptic Gregorian date.
    private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
