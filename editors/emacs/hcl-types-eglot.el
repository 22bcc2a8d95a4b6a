;;; hcl-types-eglot.el --- hcl-types as eglot's language server  -*- lexical-binding: t; -*-

;; The recipe from editors/emacs/README.md, as a file: put `hcl-types' on
;; your PATH, then load this from your init file
;;   (load "/path/to/hcl-types/editors/emacs/hcl-types-eglot.el")
;; or copy what you need of it. editors/emacs/test/run tests it in real Emacs
;; (Debian's emacs-nox 28 with elpa-eglot).
;;
;; Eglot is built into Emacs 29 and later; on Emacs 28 install it (M-x
;; package-install RET eglot, or Debian's elpa-eglot). Uses terraform-mode and
;; hcl-mode (MELPA) when you have them, and defines minimal ones when you do
;; not (comments and strings only: no indentation, no highlighting to speak of).

;;; Code:

(require 'eglot)

(unless (fboundp 'hcl-mode)
  (defvar hcl-types--syntax-table
    (let ((st (make-syntax-table)))
      (modify-syntax-entry ?# "< b" st)
      (modify-syntax-entry ?\n "> b" st)
      (modify-syntax-entry ?/ ". 124" st)
      (modify-syntax-entry ?* ". 23b" st)
      (modify-syntax-entry ?_ "_" st)
      (modify-syntax-entry ?- "_" st)
      st)
    "Syntax table of the minimal `hcl-mode'.")
  (define-derived-mode hcl-mode prog-mode "HCL"
    "A minimal HCL mode, for the hcl-types language server."
    :syntax-table hcl-types--syntax-table
    (setq-local comment-start "# ")
    (setq-local comment-start-skip "\\(?:#\\|//+\\|/\\*+\\)\\s-*")))

(unless (fboundp 'terraform-mode)
  (define-derived-mode terraform-mode hcl-mode "Terraform"
    "A minimal Terraform mode, for the hcl-types language server."))

;; Eglot names the language after the mode: `pcl' for pcl-mode.
(unless (fboundp 'pcl-mode)
  (define-derived-mode pcl-mode hcl-mode "PCL"
    "Pulumi PCL (.pp), for the hcl-types language server."))

(add-to-list 'auto-mode-alist '("\\.tf\\'" . terraform-mode))
(add-to-list 'auto-mode-alist '("\\.tfvars\\'" . terraform-mode))
(add-to-list 'auto-mode-alist '("\\.hcl\\'" . hcl-mode))
(add-to-list 'auto-mode-alist '("\\.nv\\.hcl\\'" . hcl-mode)) ; Nomad variable specifications
;; Terraform's own `.hcl' files: query files and test mocks are Terraform
;; (policy files, `.policy.hcl', stay `hcl-mode').
(add-to-list 'auto-mode-alist '("\\.tf\\(?:query\\|mock\\)\\.hcl\\'" . terraform-mode))
;; .pp is Puppet too: leave it to puppet-mode when that is installed.
(unless (fboundp 'puppet-mode)
  (add-to-list 'auto-mode-alist '("\\.pp\\'" . pcl-mode)))

;; Ahead of any other server for these modes (Emacs 29's eglot lists
;; terraform-ls for terraform-mode). Settings go in :initializationOptions,
;; which only your own configuration sets, e.g.
;;   ("hcl-types" "lsp" :initializationOptions
;;    (:hclTypes (:severity (:unsafe-conversion "off"))))
;; and in `eglot-workspace-configuration' (a .dir-locals.el may set those).
(add-to-list 'eglot-server-programs
             '((terraform-mode hcl-mode pcl-mode) . ("hcl-types" "lsp")))

(dolist (hook '(terraform-mode-hook hcl-mode-hook pcl-mode-hook))
  (add-hook hook #'eglot-ensure))

(provide 'hcl-types-eglot)
;;; hcl-types-eglot.el ends here
