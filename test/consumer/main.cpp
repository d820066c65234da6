// Built against an installed pscan: one scan with the reference policy, checked by hand; and,
// built against pscan::distributed where the package has it, the same scan over a communicator
// of one rank.
#include <cstdio>
#include <pscan/pscan.hpp>
#include <vector>
#if defined(PSCAN_HAS_DISTRIBUTED)
#include <pscan/distributed.hpp>
#endif

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
#if defined(PSCAN_HAS_DISTRIBUTED)
  MPI_Init(nullptr, nullptr);
  std::vector<int> distributed_out(in.size());
  pscan::inclusive_scan(pscan::distributed(MPI_COMM_SELF, pscan::seq), in.begin(), in.end(),
                        distributed_out.begin());
  MPI_Finalize();
  if (distributed_out != expected) {
    std::puts("pscan_consumer: wrong distributed inclusive_scan result");
    return 1;
  }
  std::puts("pscan_consumer: distributed inclusive_scan ok");
#endif
  return 0;
}
