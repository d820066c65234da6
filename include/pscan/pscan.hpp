#pragma once
// pscan: scan, reduce, segmented scan and segmented reduce, reduce_by_key, and the transform_
// forms of scan and reduce, behind one interface; the execution policy picks the backend.
// Backend headers come from <pscan/backends.hpp>, which the build generates from the enabled
// backends (CUDA ones only when compiled by nvcc).

#include <pscan/error.hpp>
#include <pscan/functional.hpp>
#include <pscan/future_value.hpp>
#include <pscan/policy.hpp>
#include <pscan/reduce.hpp>
#include <pscan/reduce_by_key.hpp>
#include <pscan/scan.hpp>
#include <pscan/segmented.hpp>
#include <pscan/transform.hpp>

#include <pscan/backends.hpp>
