//===- PassCounters.h - A pass's counters, each defined once ----*- C++ -*-===//
//
// A pass that counts its work declares its counters as one table, a macro
// X-list with a row per counter:
//
//   #define IRS_FOO_COUNTERS(X) X(Field, StatisticName, "json_key", "what")
//     (one X(...) per counter, continued with backslashes)
//
// from which come the fields of its stats struct (IRS_COUNTER_FIELD) and its
// += (IRS_COUNTER_ADD), its STATISTICs under the pass's DEBUG_TYPE
// (IRS_COUNTER_STATISTIC, IRS_COUNTER_BUMP, in the pass's .cpp), and the
// keys of the C interface's JSON (IRS_COUNTER_JSON). Before, the fields, the
// statistics and the keys were three lists that had to agree.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_TRANSFORMS_PASSCOUNTERS_H
#define IR_SANITIZE_TRANSFORMS_PASSCOUNTERS_H

/// `unsigned Field = 0; ///< Desc` in the stats struct.
#define IRS_COUNTER_FIELD(Field, Statistic, Key, Desc) unsigned Field = 0;
/// `Field += O.Field;` in its operator+=(const T &O).
#define IRS_COUNTER_ADD(Field, Statistic, Key, Desc) Field += O.Field;
/// The STATISTIC (ALWAYS_ENABLED: release builds of LLVM, Debian's, make
/// STATISTIC a no-op in code compiled against them; DeveloperGuide,
/// "Statistics").
#define IRS_COUNTER_STATISTIC(Field, Statistic, Key, Desc)                     \
  ALWAYS_ENABLED_STATISTIC(Statistic, Desc);
/// `Statistic += S.Field;`, with the stats struct named S.
#define IRS_COUNTER_BUMP(Field, Statistic, Key, Desc) Statistic += S.Field;
/// `{"json_key", S.Field},` in a json::Object, with the stats struct named S.
#define IRS_COUNTER_JSON(Field, Statistic, Key, Desc) {Key, S.Field},

#endif
