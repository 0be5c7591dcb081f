/* dryrun.h -- the unit tests' canned `nvcc --dryrun -c` (nvcc 13, one TU,
 * sm_80 with its PTX, shortened), as toolkit.c records it: the probe
 * directory written @PROBEDIR@. test_core parses it; test_steps has a
 * fake nvcc print it. */
#ifndef CUGEN_TEST_DRYRUN_H
#define CUGEN_TEST_DRYRUN_H

static const char *dryrun_text =
	"#$ _NVVM_BRANCH_=nvvm\n"
	"#$ _HERE_=/cuda/bin\n"
	"#$ CICC_PATH=/cuda/nvvm/bin\n"
	"#$ gcc -D__CUDA_ARCH_LIST__=800 -E -x c++ -D__CUDACC__ \"cugenprobe.cu\" -o \"/tmp/tmpxft_1_2-5_cugenprobe.cpp4.ii\"\n"
	"#$ cudafe++ --c++17 --orig_src_file_name \"cugenprobe.cu\" --orig_src_path_name \"@PROBEDIR@/cugenprobe.cu\" "
	"--gen_c_file_name \"/tmp/tmpxft_1_2-6_cugenprobe.compute_80.cudafe1.cpp\" --stub_file_name \"tmpxft_1_2-6_cugenprobe.compute_80.cudafe1.stub.c\" "
	"--gen_module_id_file --module_id_file_name \"/tmp/tmpxft_1_2-4_cugenprobe.module_id\" \"/tmp/tmpxft_1_2-5_cugenprobe.cpp4.ii\"\n"
	"#$ gcc -D__CUDA_ARCH__=800 -D__CUDA_ARCH_LIST__=800 -E -x c++ \"cugenprobe.cu\" -o \"/tmp/tmpxft_1_2-8_cugenprobe.compute_80.cpp1.ii\"\n"
	"#$ \"$CICC_PATH/cicc\" --c++17 --orig_src_file_name \"cugenprobe.cu\" --orig_src_path_name \"@PROBEDIR@/cugenprobe.cu\" -arch compute_80 "
	"--include_file_name \"tmpxft_1_2-3_cugenprobe.fatbin.c\" -tused --module_id_file_name \"/tmp/tmpxft_1_2-4_cugenprobe.module_id\" "
	"--gen_c_file_name \"/tmp/tmpxft_1_2-7_cugenprobe.compute_80.cudafe1.c\" --stub_file_name \"/tmp/tmpxft_1_2-7_cugenprobe.compute_80.cudafe1.stub.c\" "
	"--gen_device_file_name \"/tmp/tmpxft_1_2-7_cugenprobe.compute_80.cudafe1.gpu\" \"/tmp/tmpxft_1_2-8_cugenprobe.compute_80.cpp1.ii\" "
	"-o \"/tmp/tmpxft_1_2-7_cugenprobe.compute_80.ptx\"\n"
	"#$ ptxas -arch=sm_80 -m64 \"/tmp/tmpxft_1_2-7_cugenprobe.compute_80.ptx\" -o \"/tmp/tmpxft_1_2-9_cugenprobe.compute_80.cubin\"\n"
	"#$ fatbinary -64 --cicc-cmdline=\"-ftz=0 \" \"--image3=kind=elf,sm=80,file=/tmp/tmpxft_1_2-9_cugenprobe.compute_80.cubin\" "
	"\"--image3=kind=ptx,sm=80,file=/tmp/tmpxft_1_2-7_cugenprobe.compute_80.ptx\" --embedded-fatbin=\"/tmp/tmpxft_1_2-3_cugenprobe.fatbin.c\"\n"
	"#$ rm /tmp/tmpxft_1_2-3_cugenprobe.fatbin\n"
	"#$ gcc -D__CUDA_ARCH__=800 -c -x c++ \"/tmp/tmpxft_1_2-7_cugenprobe.compute_80.cudafe1.cpp\" -o \"cugenprobe.o\"\n";

#endif
