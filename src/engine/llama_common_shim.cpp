// rigbench: the one function of llama.cpp's common.cpp that common/log.cpp calls, for the two
// files of libcommon rigbench compiles (cmake/llama.cmake rigbench_llama_fit): the log never
// colors, since rigbench captures it (engine/llama_support) rather than printing it to a tty.
bool tty_can_use_colors() { return false; }
