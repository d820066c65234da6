// Built against an installed pscan: one scan with the reference policy, checked by hand.
#include <cstdio>
#include <pscan/pscan.hpp>
#include <vector>

int main() {
  const std::vector<int> in = {3, 1, 4, 1, 5, 9, 2, 6};
  const std::vector<int> expected = {3, 4, 8, 9, 14, 23, 25, 31};
  std::vector<int> out(in.size());
  pscan::inclusive_scan(pscan::seq, in.begin(), in.end(), out.begin());
  if (out != expected) {
    std::puts("pscan_consumer: wrong inclusive_scan result");
    return 1;
  }
  std::puts("pscan_consumer: inclusive_scan ok");
  return 0;
}
