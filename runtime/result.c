/* result.c — names of runtime's result types (result.h). */
#include "runtime/result.h"

const char *gl_result_severity_name(gl_diag_severity s)
{
    switch (s) {
    case GL_DIAG_ERROR: return "error";
    case GL_DIAG_WARNING: return "warning";
    case GL_DIAG_NOTE: return "note";
    }
    return "?";
}
