! The one command-line argument of the Fortran test and bench programs: a
! positive count (rounds, steps, milliseconds), or the program's default
! when there is none.  Anything else stops the program with status 2 and a
! message naming the program.
module count_argument_mod
  implicit none
contains
  integer function count_argument(program, default, most)
    character(*), intent(in) :: program
    integer, intent(in) :: default, most
    character(32) :: arg
    integer :: arg_len, ios
    count_argument = default
    if (command_argument_count() < 1) return
    call get_command_argument(1, arg, arg_len)
    read (arg, *, iostat=ios) count_argument
    if (ios /= 0 .or. arg_len > len(arg) .or. count_argument < 1 .or. &
        count_argument > most) then
      print '(a, a, i0)', program, ': the argument must be a count from 1 to ', most
      stop 2
    end if
  end function count_argument

  ! A number as text with a leading digit ("0.0350", not ".0350").
  function number_text(x) result(text)
    double precision, intent(in) :: x
    character(:), allocatable :: text
    character(24) :: buf
    write (buf, '(f16.4)') x
    text = trim(adjustl(buf))
  end function number_text
end module count_argument_mod
