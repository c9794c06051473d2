#include "core/model/run_control.hpp"

namespace attnlab {

void RunControl::check_cancel() const {
  if (cancel_requested()) throw Cancelled();
}

void RunControl::report(double fraction) const {
  if (progress) progress(fraction);
}

RunControl RunControl::part(double begin, double end) const {
  RunControl sub;
  sub.cancel = cancel;
  if (progress)
    sub.progress = [whole = progress, begin, end](double f) { whole(begin + (end - begin) * f); };
  return sub;
}

}  // namespace attnlab
