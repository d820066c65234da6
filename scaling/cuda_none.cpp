// pscan-scaling without CUDA: the GPU policies are not built.

#include <stdexcept>

#include "cuda_runs.hpp"

namespace scaling {

result run_cuda(const options&, bool, int) {
  throw std::runtime_error("this build of pscan-scaling has no CUDA policies");
}

}  // namespace scaling
