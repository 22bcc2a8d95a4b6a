" Pulumi PCL is HCL syntax: use Neovim's hcl syntax file.
if exists('b:current_syntax')
  finish
endif
runtime! syntax/hcl.vim
unlet! b:current_syntax
let b:current_syntax = 'pcl'
