#include "options/vlsm_live_switch.h"

#include <string>

#include "options/compaction_pri_name.h"
#include "rocksdb/vlsm.h"

namespace ROCKSDB_NAMESPACE {

CompactionPri LiveSwitchHome(CompactionPri opened) {
  return IsVlsmCompactionPri(opened) ? kMinOverlappingRatio : opened;
}

Status CheckLiveCompactionPriSwitch(CompactionPri opened, CompactionPri from,
                                    CompactionPri to) {
  const CompactionPri home = LiveSwitchHome(opened);
  auto may_switch = [home](CompactionPri pri) {
    return pri == home || IsVlsmCompactionPri(pri);
  };
  if (from == to || (may_switch(from) && may_switch(to))) {
    return Status::OK();
  }
  return Status::InvalidArgument(
      std::string("compaction_pri: a live column family switches only "
                  "between kVlsm, kVlsmRanged and ") +
      CompactionPriName(home) +
      " (the stock priority it opened with), not from " +
      CompactionPriName(from) + " to " + CompactionPriName(to) +
      "; reopen it with the priority you want");
}

}  // namespace ROCKSDB_NAMESPACE
