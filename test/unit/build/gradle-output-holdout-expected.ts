import type { BuildDiagnostic } from '../../../src/plugins/build/services/gradle-output/build-diagnostic.js';
import { d } from './gradle-output-expected.js';

/*
 * A held-out set: real logs labelled by people who never read or ran the parser, kept apart from the corpus so its
 * score estimates the parser on logs nobody tuned it to. Score it with
 * `node scripts/measure-gradle-parser.mjs --holdout` and read only the totals: a rule written for one of these logs
 * makes the estimate worthless (move the set into the corpus first, and gather a new one).
 */
export const HOLDOUT_EXPECTED: Record<string, BuildDiagnostic[]> = {
  'holdout11a_javac_zh_cn_windows_relative_path_buildconfig_failure_header.txt': [
    d(
      'error',
      'javac',
      'code\\react-native-router-flux\\Example\\android\\app\\src\\main\\java\\com\\example\\MainApplication.java',
      20,
      14,
      '找不到符号 (符号: 变量 BuildConfig)',
      ':app:compileDebugJavaWithJavac',
    ),
  ],
  'holdout11a_javac_zh_cn_after_task_failed_and_actionable_tasks_cut.txt': [
    d(
      'error',
      'javac',
      '/Users/ying/workspace/RNProjects/ReactNativeDemo/android/app/src/main/java/com/reactnativegallerydemo/MainApplication.java',
      22,
      28,
      '找不到符号 (符号: 变量 BuildConfig)',
      ':app:compileDebugJavaWithJavac',
    ),
    d(
      'error',
      'javac',
      '/Users/ying/workspace/RNProjects/ReactNativeDemo/android/app/src/main/java/com/reactnativegallerydemo/MainApplication.java',
      63,
      13,
      '找不到符号 (符号: 变量 BuildConfig; 位置: 类 MainApplication)',
      ':app:compileDebugJavaWithJavac',
    ),
  ],
  'holdout11a_javac_relative_path_symbol_location_old_task_line.txt': [
    d(
      'error',
      'javac',
      'rn-background-geolocation-demo/android/app/src/main/java/com/rnbackgroundgeolocationsample/MainActivity.java',
      29,
      41,
      'cannot find symbol (symbol: variable BuildConfig; location: class MainActivity)',
      ':app:compileDebugJavaWithJavac',
    ),
  ],
  'holdout11a_javac_quoted_tab_first_line_symbol_no_task.txt': [
    d(
      'error',
      'javac',
      'android/app/src/main/java/com/lobbycalling/MainApplication.java',
      19,
      18,
      'cannot find symbol (symbol: variable BuildConfig)',
      null,
    ),
  ],
  'holdout11a_kotlin_ci_timestamp_prefix_supertypes_then_failure_block.txt': [
    d(
      'error',
      'kotlin',
      null,
      null,
      null,
      'Supertypes of the following classes cannot be resolved. Please make sure you have the required dependencies in the classpath: class mozilla.components.feature.session.SessionFeature, unresolved supertypes: mozilla.components.support.base.feature.UserInteractionHandler class mozilla.components.feature.session.FullScreenFeature, unresolved supertypes: mozilla.components.support.base.feature.UserInteractionHandler',
      ':app:compileGeckoNightlyDebugKotlin',
    ),
    d(
      'error',
      'gradle',
      null,
      null,
      null,
      "Execution failed for task ':app:compileGeckoNightlyDebugKotlin'",
      ':app:compileGeckoNightlyDebugKotlin',
    ),
  ],
  'holdout11a_kotlin_supertypes_four_classes_hint_then_file_url_errors_cut.txt': [
    d(
      'error',
      'kotlin',
      null,
      null,
      null,
      'Supertypes of the following classes cannot be resolved. Please make sure you have the required dependencies in the classpath: class ai.mlc.mlcllm.JSONFFIEngine, unresolved supertypes: Object class ai.mlc.mlcllm.JSONFFIEngine.KotlinFunction, unresolved supertypes: Object class kotlin.Pair, unresolved supertypes: java.io.Serializable class org.apache.tvm.TVMValue, unresolved supertypes: java.lang.Object Adding -Xextended-compiler-checks argument might provide additional information.',
      ':mlc4j:compileDebugKotlin',
    ),
    ...(
      [
        [12, 13, 'Unresolved reference: util'],
        [13, 13, 'Unresolved reference: util'],
        [
          18,
          9,
          "Cannot access class 'java.lang.Thread'. Check your module classpath for missing or conflicting dependencies",
        ],
      ] as const
    ).map(([line, column, message]) =>
      d(
        'error',
        'kotlin',
        '/share/Repository/mlc-llm/android/MLCChat/dist/lib/mlc4j/src/main/java/ai/mlc/mlcllm/MLCEngine.kt',
        line,
        column,
        message,
        ':mlc4j:compileDebugKotlin',
      ),
    ),
  ],
  'holdout11a_kotlin_gradle3_after_java_supertypes_dagger_note.txt': [
    d(
      'error',
      'kotlin',
      null,
      null,
      null,
      'Supertypes of the following classes cannot be resolved. Please make sure you have the required dependencies in the classpath: class ru.yandex.yandexmapkit.MapController, unresolved supertypes: StartupListener',
      ':app:compileEmulatorDebugKotlinAfterJava',
    ),
  ],
  'holdout11a_kotlin_eas_run_gradlew_prefix_orphan_supertype_lines_two_errors.txt': [
    d(
      'error',
      'kotlin',
      '/private/var/folders/nl/12c07hgn79z126lnmc5zrk2m0000gn/T/eas-build-local-nodejs/629d336c-5140-4e6b-b950-6f6df0d4b882/build/node_modules/shadowlist/android/src/main/java/com/shadowlist/ShadowlistPackage.kt',
      19,
      41,
      "Cannot access 'NativeShadowlistSpec' which is a supertype of 'com.shadowlist.ShadowlistModule'. Check your module classpath for missing or conflicting dependencies",
      null,
    ),
    d(
      'error',
      'kotlin',
      '/private/var/folders/nl/12c07hgn79z126lnmc5zrk2m0000gn/T/eas-build-local-nodejs/629d336c-5140-4e6b-b950-6f6df0d4b882/build/node_modules/shadowlist/android/src/main/java/com/shadowlist/ShadowlistPackage.kt',
      19,
      47,
      'Type mismatch: inferred type is ShadowlistModule but NativeModule? was expected',
      null,
    ),
  ],
  'holdout11a_kotlin_k1_inline_code_error_then_execution_failed_line.txt': [
    d(
      'error',
      'kotlin',
      '/opt/buildagent/work/876c90ec829e601/sharechat/initializer/PlutoInitializer.kt',
      81,
      13,
      'Unresolved reference: mainThreadResponseThreshold',
      ':app:compileReleaseKotlin',
    ),
    d(
      'error',
      'gradle',
      null,
      null,
      null,
      "Execution failed for task ':app:compileReleaseKotlin'",
      ':app:compileReleaseKotlin',
    ),
  ],
  'holdout11a_aapt_studio_error_aapt2_compile_failed_issues_bullets_unquoted_task.txt': [
    ...[929, 930].map((line) =>
      d(
        'error',
        'aapt2',
        './project/apk/build/intermediates/incremental/mergeReleaseResources/merged.dir/values/values.xml',
        line,
        null,
        'invalid integer',
        ':apk:mergeReleaseResources',
      ),
    ),
    d(
      'error',
      'gradle',
      null,
      null,
      null,
      'Execution failed for task :apk:mergeReleaseResources: Error: java.lang.RuntimeException: java.lang.RuntimeException: com.android.builder.internal.aapt.AaptException: AAPT2 compile failed:',
      ':apk:mergeReleaseResources',
    ),
  ],
  'holdout11a_aapt_studio_messages_duplicate_attr_grouped_by_file_information_lines.txt': [
    d(
      'error',
      'aapt2',
      'C:\\Users\\Ved&Div\\.gradle\\caches\\transforms-1\\files-1.1\\appcompat-v7-26.1.0.aar\\181ca971bdc1545468efadc3e76816ee\\res\\values\\values.xml',
      246,
      5,
      "duplicate value for resource 'attr/angle' with config ''.",
      null,
    ),
    d(
      'error',
      'aapt2',
      'C:\\Users\\Ved&Div\\Desktop\\HackingTutorials\\app\\build\\intermediates\\incremental\\mergeDebugResources\\merged.dir\\values\\values.xml',
      542,
      null,
      "duplicate value for resource 'attr/angle' with config ''.",
      null,
    ),
    d(
      'error',
      'gradle',
      null,
      null,
      null,
      "Execution failed for task ':app:mergeDebugResources': Error: java.util.concurrent.ExecutionException: com.android.tools.aapt2.Aapt2Exception: AAPT2 error: check logs for details",
      ':app:mergeDebugResources',
    ),
  ],
  'holdout11a_aapt_caused_by_compilation_failed_then_aar_item_inner_element.txt': [
    d(
      'error',
      'aapt2',
      '/home/pedrofsn/.gradle/caches/transforms-1/files-1.1/stickyheaders-0.5.0.aar/dfa156be63c5036f11c837f85651bfa0/res/values/values.xml',
      4,
      5,
      '<item> inner element must either be a resource reference or empty.',
      null,
    ),
  ],
  'holdout11a_aapt_studio_error_aapt1_no_resource_found_attr_single_line.txt': [
    d(
      'error',
      'aapt2',
      null,
      15,
      21,
      "No resource found that matches the given name: attr 'android:keyboardNavigationCluster'.",
      null,
    ),
  ],
  'holdout11a_precision_quoted_task_execution_exception_process_resources_frames.txt': [],
  'holdout11a_manifest_studio_error_position_allowbackup_tab_details_old_merger.txt': [
    d(
      'error',
      'manifest',
      'AndroidManifest.xml',
      42,
      9,
      'Attribute application@allowBackup value=(false) from AndroidManifest.xml:42:9 is also present at com.isseiaoki:simplecropview:1.0.7:12:9 value=(true) Suggestion: add \'tools:replace="android:allowBackup"\' to <application> element at AndroidManifest.xml:41:5 to override',
      null,
    ),
  ],
  'holdout11a_manifest_allowbackup_what_went_wrong_tab_details.txt': [
    d(
      'error',
      'manifest',
      'AndroidManifest.xml',
      6,
      9,
      'Manifest merger failed : Attribute application@allowBackup value=(true) from AndroidManifest.xml:6:9-35 is also present at [com.leon.channel:helper:1.0.2] AndroidManifest.xml:12:9-36 value=(false). Suggestion: add \'tools:replace="android:allowBackup"\' to <application> element at AndroidManifest.xml:5:5-19:19 to override.',
      ':app:processDebugManifest',
    ),
  ],
  'holdout11a_manifest_blockquote_studio_error_flavor_task_allowbackup.txt': [
    d(
      'error',
      'manifest',
      'AndroidManifest.xml',
      36,
      9,
      'Manifest merger failed : Attribute application@allowBackup value=(false) from AndroidManifest.xml:36:9-36 is also present at [com.shehabic.droppy:Droppy:0.2.5.2] AndroidManifest.xml:12:9-35 value=(true). Suggestion: add \'tools:replace="android:allowBackup"\' to <application> element at AndroidManifest.xml:34:5-101:19 to override.',
      ':app:processInternalConfigDebugManifest',
    ),
  ],
  'holdout11a_manifest_bare_attribute_record_two_libraries.txt': [
    d(
      'error',
      'manifest',
      'AndroidManifest.xml',
      24,
      5,
      'Attribute application@allowBackup value=(true) from [com.github.yesterselga:country-picker-android:1.0] AndroidManifest.xml:12:9-35 is also present at [com.payumoney.sdkui:plug-n-play:1.6.0] AndroidManifest.xml:17:9-36 value=(false). Suggestion: add \'tools:replace="android:allowBackup"\' to <application> element at AndroidManifest.xml:24:5-142:19 to override.',
      null,
    ),
  ],
  'holdout11a_manifest_one_line_record_module_library_element_without_name.txt': [
    d(
      'error',
      'manifest',
      'AndroidManifest.xml',
      4,
      18,
      'Attribute application@allowBackup value=(false) from AndroidManifest.xml:4:18-45 is also present at [:barcodescanner:] AndroidManifest.xml:12:9-35 value=(true). Suggestion: add \'tools:replace="android:allowBackup"\' to element at AndroidManifest.xml:4:5-11:19 to override.',
      null,
    ),
  ],
  'holdout11a_tests_kotlin_backtick_name_assertion_error_full_frames_cut.txt': [
    d(
      'error',
      'test',
      'PreviewerViewModelTest.kt',
      203,
      null,
      'PreviewerViewModelTest > next, slider and previous navigation integration: java.lang.AssertionError',
      null,
    ),
  ],
  'holdout11a_precision_tests_uncaught_thread_exception_main_dispatcher_no_failed_line.txt': [],
  'holdout11a_kapt_e_prefixed_zh_cn_databinding_generated_symbol_windows.txt': [
    d(
      'error',
      'kapt',
      'E:\\workspace\\Android_Proj_kotlin\\FD-And\\app\\build\\generated\\data_binding_base_class_source_out\\hebei_czDebug\\dataBindingGenBaseClassesHebei_czDebug\\out\\com\\uhope\\fdm\\databinding\\FdRainStatsActivityBinding.java',
      46,
      17,
      '找不到符号 (符号: 类 DataBindingComponent; 位置: 类 FdRainStatsActivityBinding)',
      null,
    ),
  ],
  'holdout11a_r8_error_prefix_type_defined_multiple_times_two_jars.txt': [
    d(
      'error',
      'r8',
      '/Users/cipchk/Desktop/work/src-app/build/open_file_android/intermediates/runtime_library_classes_jar/release/classes.jar',
      null,
      null,
      'Type com.crazecoder.openfile.BuildConfig is defined multiple times: /Users/cipchk/Desktop/work/src-app/build/open_file_android/intermediates/runtime_library_classes_jar/release/classes.jar:com/crazecoder/openfile/BuildConfig.class, /Users/cipchk/Desktop/work/src-app/build/open_filex/intermediates/runtime_library_classes_jar/release/classes.jar:com/crazecoder/openfile/BuildConfig.class',
      null,
    ),
  ],
  'holdout11a_r8_gitlab_runner_transform_jar_defined_multiple_times_failure_header.txt': [
    d(
      'error',
      'r8',
      '/home/gitlab-runner/builds/xWC5nkKE/0/jianbaotong/AS-Jambo/app_zheb/build/intermediates/transforms/sdkEditor/arm64/release/19.jar',
      null,
      null,
      'Type com.luck.picture.lib.PictureSelectorCameraEmptyActivity is defined multiple times: /home/gitlab-runner/builds/xWC5nkKE/0/jianbaotong/AS-Jambo/app_zheb/build/intermediates/transforms/sdkEditor/arm64/release/19.jar:com/luck/picture/lib/PictureSelectorCameraEmptyActivity.class, /home/gitlab-runner/builds/xWC5nkKE/0/jianbaotong/AS-Jambo/app_zheb/build/intermediates/transforms/sdkEditor/arm64/release/0/com/luck/picture/lib/PictureSelectorCameraEmptyActivity.class',
      null,
    ),
  ],
  'holdout11a_r8_redacted_relative_windows_paths_space_before_colon_minify_failure.txt': [
    d(
      'error',
      'r8',
      '\\.gradle\\caches\\transforms-3\\591fe65e72cd5150e616f82b85520e3e\\transformed\\jetified-react-native-0.68.5-runtime.jar',
      null,
      null,
      'Type com.facebook.react.bridge.ReactContext is defined multiple times : \\.gradle\\caches\\transforms-3\\591fe65e72cd5150e616f82b85520e3e\\transformed\\jetified-react-native-0.68.5-runtime.jar:com/facebook/react/bridge/ReactContext.class, \\build\\stripe_android\\intermediates\\runtime_library_classes_jar\\release\\classes.jar:com/facebook/react/bridge/ReactContext.class',
      null,
    ),
    d(
      'error',
      'gradle',
      null,
      null,
      null,
      "Execution failed for task ':app:minifyReleaseWithR8': com.android.tools.r8.CompilationFailedException: Compilation failed to complete, origin:.gradle\\caches\\transforms-3\\591fe65e72cd5150e616f82b85520e3e\\transformed\\jetified-react-native-0.68.5-runtime.jar:com/facebook/react/bridge/ReactContext.class",
      ':app:minifyReleaseWithR8',
    ),
  ],
  'holdout11a_precision_eight_space_gradle_frames_only_cut.txt': [],
  'holdout11a_precision_kotlin_compile_task_execution_exception_spaces_frames.txt': [],
  'holdout11a_javac_options_obsolete_source_target_warnings_pasted_in_prose.txt': [
    d(
      'warning',
      'javac',
      null,
      null,
      null,
      '[options] source value 8 is obsolete and will be removed in a future release',
      null,
    ),
    d(
      'warning',
      'javac',
      null,
      null,
      null,
      '[options] target value 8 is obsolete and will be removed in a future release',
      null,
    ),
  ],
  'holdout11a_ksp_room_tagged_illegal_state_type_name_tab_frames_cut.txt': [
    d(
      'error',
      'ksp',
      null,
      null,
      null,
      'java.lang.IllegalStateException: Unexpected type name for KSType: org.test.Identifier< com.mypackage.DataProvider>',
      null,
    ),
  ],
  'holdout12a_javac_package_r_orphan_source_line_seven_errors_cut.txt': [
    ...(
      [
        [81, 60],
        [209, 51],
        [211, 78],
      ] as const
    ).map(([line, column]) =>
      d(
        'error',
        'javac',
        '/mnt/TF/projects/cordova/nophone/platforms/android/app/src/main/java/org/apache/cordova/overApps/Services/OverAppsService.java',
        line,
        column,
        'package R does not exist',
        null,
      ),
    ),
  ],
  'holdout12a_aapt_agpbi_style_attribute_windows_json_only_line.txt': [
    d(
      'error',
      'aapt2',
      'D:\\shenggaofei\\myproject\\otherproject9\\ColorfulNews-master\\ColorfulNews-master\\app\\src\\main\\res\\values\\styles_layout.xml',
      4,
      5,
      "style attribute '@android:attr/windowEnterAnimation' not found.",
      null,
    ),
  ],
  'holdout12a_kapt_zh_cn_generated_hilt_factory_symbol_class_no_prefix.txt': [
    d(
      'error',
      'kapt',
      '/Users/admin/Desktop/移动开发/android/mydemo/Pokedex/app/build/generated/source/kapt/debug/com/skydoves/pokedex/test/hilt/HiltTestModule_GetHiltTestObjectFactory.java',
      23,
      79,
      '找不到符号 (符号: 类 HiltTestObject)',
      null,
    ),
  ],
  'holdout12a_kapt_generated_factory_nonexistentclass_across_task_lines_cut.txt': [
    d(
      'error',
      'kapt',
      '/home/runner/work/Refresh-Token-Sample/Refresh-Token-Sample/app/build/generated/source/kapt/debug/com/hoc081098/refreshtokensample/data/local/UserLocalSourceImpl_Factory.java',
      10,
      13,
      'package error does not exist',
      ':app:compileDebugJavaWithJavac',
    ),
    ...(
      [
        [21, 36],
        [25, 57],
      ] as const
    ).map(([line, column]) =>
      d(
        'error',
        'kapt',
        '/home/runner/work/Refresh-Token-Sample/Refresh-Token-Sample/app/build/generated/source/kapt/debug/com/hoc081098/refreshtokensample/data/local/UserLocalSourceImpl_Factory.java',
        line,
        column,
        'cannot find symbol (symbol: class NonExistentClass; location: class UserLocalSourceImpl_Factory)',
        ':app:compileDebugJavaWithJavac',
      ),
    ),
  ],
  'holdout12a_kotlin_k1_windows_flutter_expecting_element_unexpected_tokens_sigterm.txt': [
    d(
      'error',
      'kotlin',
      'C:\\yogesh\\widgets\\android\\app\\src\\main\\kotlin\\com\\example\\widgets\\MainActivity.kt',
      8,
      8,
      'Expecting an element',
      null,
    ),
    d(
      'error',
      'kotlin',
      'C:\\yogesh\\widgets\\android\\app\\src\\main\\kotlin\\com\\example\\widgets\\MainActivity.kt',
      8,
      9,
      "Unexpected tokens (use ';' to separate expressions on the same line)",
      null,
    ),
    d(
      'error',
      'gradle',
      null,
      null,
      null,
      "Execution failed for task ':app:compileDebugKotlin': Compilation error. See log for more details",
      ':app:compileDebugKotlin',
    ),
  ],
  'holdout12a_kotlin_k1_redacted_path_conflicting_import_generated_navargs.txt': [
    d(
      'error',
      'kotlin',
      '****\\ui\\screen\\NavArgsGetters.kt',
      78,
      100,
      "Conflicting import, imported name 'NavArgs' is ambiguous",
      null,
    ),
  ],
  'holdout12a_kotlin_k1_flutter_launching_quoted_nine_expecting_member_declaration_cut.txt': (
    [
      [10, 14],
      [10, 21],
      [10, 29],
      [12, 11],
      [12, 18],
      [12, 26],
      [12, 41],
      [12, 42],
      [12, 44],
    ] as const
  ).map(([line, column]) =>
    d(
      'error',
      'kotlin',
      'C:\\AppFlutter\\mnemonic\\android\\app\\src\\main\\kotlin\\com\\pablolavin\\mnemonic\\MainActivity.kt',
      line,
      column,
      'Expecting member declaration',
      null,
    ),
  ),
  'holdout12a_kotlin_k1_backtick_inline_windows_path_with_space_expecting_member_cut.txt': (
    [
      [21, 12, 'Expecting member declaration'],
      [21, 17, 'Expecting member declaration'],
      [21, 25, 'Expecting member declaration'],
      [21, 26, 'Expecting member declaration'],
      [21, 28, 'Expecting member declaration'],
      [22, 55, 'Expecting an element'],
    ] as const
  ).map(([line, column, message]) =>
    d(
      'error',
      'kotlin',
      'C:\\Users\\Rich Design\\Desktop\\FlutterApps\\SincapScooterProject\\SincapScooterFlutter\\android\\app\\src\\main\\kotlin\\com\\sincapscooter\\Application.kt',
      line,
      column,
      message,
      null,
    ),
  ),
  'holdout12a_kotlin_backtick_task_runtime_jars_warnings_then_incompatible_module_cut.txt': [
    d(
      'warning',
      'kotlin',
      null,
      null,
      null,
      'Runtime JAR files in the classpath should have the same version. These files were found in the classpath: /Users/nullifier/.gradle/caches/transforms-2/files-2.1/6bc91ea9b935f3e27737ccddaeed2a40/jetified-kotlin-stdlib-jdk7-1.3.50.jar (version 1.3) /Users/nullifier/.gradle/caches/transforms-2/files-2.1/924d882cd3719d0ab9d231085359939a/jetified-kotlin-stdlib-1.7.10.jar (version 1.7) /Users/nullifier/.gradle/caches/transforms-2/files-2.1/1d3fdd47ead9633bf8b5ec726b9760e7/jetified-kotlin-stdlib-common-1.7.10.jar (version 1.7)',
      ':rxdatasources-api:compileReleaseKotlin',
    ),
    d(
      'warning',
      'kotlin',
      null,
      null,
      null,
      'Some runtime JAR files in the classpath have an incompatible version. Consider removing them from the classpath',
      ':rxdatasources-api:compileReleaseKotlin',
    ),
    d(
      'error',
      'kotlin',
      '/Users/nullifier/.gradle/caches/transforms-2/files-2.1/1d3fdd47ead9633bf8b5ec726b9760e7/jetified-kotlin-stdlib-common-1.7.10.jar!/META-INF/kotlin-stdlib-common.kotlin_module',
      null,
      null,
      'Module was compiled with an incompatible version of Kotlin. The binary version of its metadata is 1.7.1, expected version is 1.4.2.',
      ':rxdatasources-api:compileReleaseKotlin',
    ),
  ],
  'holdout12a_kotlin_k2_file_url_cannot_access_supertype_flutter_plugin_cut.txt': (
    [
      [193, 68, 'supertype'],
      [194, 65, 'supertype'],
      [196, 35, 'class'],
      [196, 35, 'supertype'],
    ] as const
  ).map(([line, column, kind]) =>
    d(
      'error',
      'kotlin',
      '/home/misha/.pub-cache/hosted/pub.dev/amplitude_flutter-4.3.2/android/src/main/kotlin/com/amplitude/amplitude_flutter/AmplitudeFlutterPlugin.kt',
      line,
      column,
      kind === 'class'
        ? "Cannot access class 'com.amplitude.core.ServerZone'. Check your module classpath for missing or conflicting dependencies."
        : "Cannot access 'com.amplitude.core.Configuration' which is a supertype of 'com.amplitude.android.Configuration'. Check your module classpath for missing or conflicting dependencies.",
      null,
    ),
  ),
  'holdout12a_aapt_relayed_workers_action_facade_five_style_not_found.txt': [
    ...Array.from({ length: 5 }, () =>
      d(
        'error',
        'aapt2',
        null,
        null,
        null,
        'resource style/Widget.AppCompat.TextView (aka my.company:style/Widget.AppCompat.TextView) not found.',
        null,
      ),
    ),
    d('error', 'aapt2', null, null, null, 'failed linking references.', null),
  ],
  'holdout12a_precision_variant_matching_details_only_cut.txt': [],
  'holdout12a_agp_studio_sync_unable_to_resolve_project_dependency_eight_records_cut.txt': [
    'debug',
    'debugAndroidTest',
  ].flatMap((variant) =>
    ['kotlin', 'java', 'native', 'assets'].map((module) =>
      d(
        'error',
        'agp',
        null,
        null,
        null,
        `Unable to resolve dependency for ':app@${variant}/compileClasspath': Could not resolve project :features:${module}.`,
        null,
      ),
    ),
  ),
  'holdout12a_manifest_bare_service_exported_record_leading_spaces_three_lines.txt': [
    d(
      'error',
      'manifest',
      'AndroidManifest.xml',
      32,
      71,
      'Attribute service#com.loveplusplus.update.DownloadService@exported value=(true) from AndroidManifest.xml:32:71-94 is also present at [MobileDemo:AutoUpdate:unspecified] AndroidManifest.xml:16:13-37 value=(false). Suggestion: add \'tools:replace="android:exported"\' to <service> element at AndroidManifest.xml:32:7-97 to override.',
      null,
    ),
  ],
  'holdout12a_manifest_two_records_wrapped_two_space_indent_module_library.txt': [
    d(
      'error',
      'manifest',
      'AndroidManifest.xml',
      130,
      16,
      'Attribute provider#androidx.core.content.FileProvider@authorities value=(com.itsaky.androidide.perf.fileprovider) from AndroidManifest.xml:130:16-72 is also present at [:core:chatai:app] AndroidManifest.xml:101:13-64 value=(com.itsaky.androidide.fileprovider).',
      null,
    ),
    d(
      'error',
      'manifest',
      'AndroidManifest.xml',
      122,
      21,
      'Attribute meta-data#android.support.FILE_PROVIDER_PATHS@resource value=(@xml/perf_file_provider_paths) from AndroidManifest.xml:122:21-68 is also present at [:core:chatai:app] AndroidManifest.xml:106:17-51 value=(@xml/file_paths).',
      null,
    ),
  ],
  'holdout12a_precision_device_junit_assertion_failed_trace_no_gradle_lines.txt': [],
  'holdout12a_javac_studio_blockquote_error_position_lossy_conversion.txt': [
    d('error', 'javac', null, 115, 46, 'incompatible types: possible lossy conversion from double to float', null),
  ],
  'holdout12a_lint_two_space_indented_missing_permission_errors_explanation_cut.txt': [99, 152].map((line) =>
    d(
      'error',
      'lint',
      '/app/src/main/java/org/mozilla/reference/browser/NotificationManager.kt',
      line,
      null,
      'Call requires permission which may be rejected by user: code should explicitly check to see if permission is available (with checkPermission) or explicitly handle a potential SecurityException [MissingPermission]',
      null,
    ),
  ),
  'holdout12a_kapt_hilt_missing_binding_qualified_scope_windows_replacement_chars_cut.txt': [
    d(
      'error',
      'kapt',
      'C:\\Users\\semyo\\AndroidStudioProjects\\Weather\\app\\build\\generated\\source\\kapt\\debug\\com\\calamity\\weather\\utils\\WeatherApplication_HiltComponents.java',
      135,
      26,
      '[Dagger/MissingBinding] @com.calamity.weather.di.ApplicationScope kotlinx.coroutines.CoroutineScope cannot be provided without an @Provides-annotated method.',
      null,
    ),
  ],
  'holdout12a_gradle_aar_metadata_min_compile_sdk_bare_record_unix_path.txt': [
    d(
      'error',
      'gradle',
      null,
      null,
      null,
      "The minCompileSdk (30) specified in a dependency's AAR metadata (META-INF/com/android/build/gradle/aar-metadata.properties) is greater than this module's compileSdkVersion (android-29). Dependency: androidx.core:core-ktx:1.7.0-alpha01. AAR metadata file: /home/colin/.gradle/caches/transforms-2/files-2.1/be6d6072dc62977808d9d687151e174a/jetified-core-ktx-1.7.0-alpha01/META-INF/com/android/build/gradle/aar-metadata.properties.",
      null,
    ),
  ],
  'holdout12a_gradle_aar_metadata_min_compile_sdk_five_space_continuations_no_file.txt': [
    d(
      'error',
      'gradle',
      null,
      null,
      null,
      "The minCompileSdk (31) specified in a dependency's AAR metadata (META-INF/com/android/build/gradle/aar-metadata.properties) is greater than this module's compileSdkVersion (android-30). Dependency: androidx.appcompat:appcompat:1.4.1.",
      null,
    ),
  ],
  'holdout12a_aapt_studio_aapt2_compile_failed_duplicate_attr_truncated_config_windows.txt': [
    d(
      'error',
      'aapt2',
      'D:\\WorkAndStudy\\AndroidProjects\\WaterDropKT\\app\\build\\intermediates\\incremental\\mergeDebugResources\\merged.dir\\values\\values.xml',
      901,
      null,
      "duplicate value for resource attr/radius with config '",
      ':app:mergeDebugResources',
    ),
    d(
      'error',
      'gradle',
      null,
      null,
      null,
      "Execution failed for task ':app:mergeDebugResources': Error: java.lang.RuntimeException: com.android.builder.internal.aapt.AaptException: AAPT2 compile failed:",
      ':app:mergeDebugResources',
    ),
  ],
  'holdout12a_gradle_aar_metadata_min_compile_sdk_bare_record_windows_path.txt': [
    d(
      'error',
      'gradle',
      null,
      null,
      null,
      "The minCompileSdk (31) specified in a dependency's AAR metadata (META-INF/com/android/build/gradle/aar-metadata.properties) is greater than this module's compileSdkVersion (android-30). Dependency: androidx.core:core-ktx:1.8.0-alpha01. AAR metadata file: C:\\Users\\RED_X\\.gradle\\caches\\transforms-2\\files-2.1\\6f26eeb7739545cb3321265ed59015e6\\jetified-core-ktx-1.8.0-alpha01\\META-INF\\com\\android\\build\\gradle\\aar-metadata.properties.",
      null,
    ),
  ],
  'holdout12a_precision_deprecation_notice_build_failed_no_cause.txt': [],
};
